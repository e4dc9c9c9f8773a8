import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limitAsExpression } from './bound-limit.ts';
import { migrateToLatest, openDatabase } from './client.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('bound-limit-test-');

describe('limitAsExpression', () => {
  it('wraps every bare bound LIMIT, in subqueries too, and leaves the rest as it was', () => {
    expect(limitAsExpression('select "id" from "blogs" where "id" = ? limit ?')).toBe(
      'select "id" from "blogs" where "id" = ? limit cast(? as integer)',
    );
    expect(limitAsExpression('select * from t order by id limit ? offset ?')).toBe(
      'select * from t order by id limit cast(? as integer) offset ?',
    );
    expect(limitAsExpression('select (select x from u LIMIT ?) from t limit ?')).toBe(
      'select (select x from u LIMIT cast(? as integer)) from t limit cast(? as integer)',
    );
  });

  it('leaves literal limits, numbered parameters, quoted text and other words alone', () => {
    for (const sql of [
      'select * from t limit 1',
      'select * from t limit ?1',
      "select * from t where note = 'limit ?' limit 1",
      'select "limit ?" from t',
      'select * from t where sublimit ? = 1',
      'select * from t',
    ])
      expect(limitAsExpression(sql)).toBe(sql);
    expect(limitAsExpression("select 'it''s limit ?' from t limit ?")).toBe(
      "select 'it''s limit ?' from t limit cast(? as integer)",
    );
  });
});

describe('a connection from openDatabase', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prepares a kysely LIMIT as an expression and answers the same rows for every limit', async () => {
    const file = path.join(tempDir(), 'site.sqlite');
    const prepared: string[] = [];
    const prepare = SQLite.prototype.prepare;
    vi.spyOn(SQLite.prototype, 'prepare').mockImplementation(function (this: SQLite.Database, source: string) {
      prepared.push(source);
      return prepare.call(this, source);
    } as typeof prepare);
    const { db, sqlite } = openDatabase(file);
    try {
      await migrateToLatest(db);
      for (const name of ['A', 'B', 'C']) await db.insertInto('categories').values({ name, created_at: 'now' }).execute();
      const names = async (limit: number, offset = 0) =>
        (await db.selectFrom('categories').select('name').orderBy('id').limit(limit).offset(offset).execute()).map(
          (row) => row.name,
        );
      expect(await names(2)).toEqual(['A', 'B']);
      expect(await names(1, 1)).toEqual(['B']);
      expect(await names(0)).toEqual([]);
      expect(await names(-1)).toEqual(['A', 'B', 'C']);
      const limited = prepared.filter((source) => /from "categories"/.test(source) && /\blimit\b/i.test(source));
      expect(limited.length).toBeGreaterThan(0);
      for (const source of limited) expect(source).toContain('limit cast(? as integer) offset ?');
    } finally {
      sqlite.close();
    }
  });
});
