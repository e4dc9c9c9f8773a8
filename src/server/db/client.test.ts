import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase } from './client.ts';
import { writeTroubles } from './write-health.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('db-client-test-');

describe('openDatabase transactions', () => {
  // Another serving process (or the CLI) on the same file is another connection.
  it('commit their write when another connection wrote after their first read', async () => {
    const file = path.join(tempDir(), 'site.sqlite');
    const { db, sqlite } = openDatabase(file);
    await migrateToLatest(db);
    sqlite.prepare("insert into categories (name, created_at) values ('First', 'now')").run();
    const other = new SQLite(file);
    other.pragma('busy_timeout = 0');
    let otherWrote = false;
    try {
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('categories').select('id').execute();
        try {
          other.prepare("insert into categories (name, created_at) values ('Other', 'now')").run();
          otherWrote = true;
        } catch (error) {
          // The transaction holds the write lock from its start: the other writer waits (here: gives up).
          expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
        }
        await trx
          .insertInto('categories')
          .values({ name: `After ${before.length}`, created_at: 'now' } as never)
          .execute();
      });
      const names = (sqlite.prepare('select name from categories order by id').all() as Array<{ name: string }>).map(
        (r) => r.name,
      );
      expect(names).toContain('After 1');
      expect(otherWrote).toBe(false);
    } finally {
      other.close();
      await db.destroy();
    }
  });
});

describe('openDatabase connections', () => {
  it("take the cache size they are given, and better-sqlite3's otherwise", async () => {
    const file = path.join(tempDir(), 'data.db');
    const writer = openDatabase(file);
    await migrateToLatest(writer.db);
    const small = openDatabase(file, { readOnly: true, cacheKib: 2048 });
    const usual = openDatabase(file, { readOnly: true });
    expect(small.sqlite.pragma('cache_size', { simple: true })).toBe(-2048);
    expect(usual.sqlite.pragma('cache_size', { simple: true })).toBe(writer.sqlite.pragma('cache_size', { simple: true }));
    const smallWriter = openDatabase(file, { cacheKib: 1024 });
    expect(smallWriter.sqlite.pragma('cache_size', { simple: true })).toBe(-1024);
    for (const opened of [small, usual, smallWriter, writer]) await opened.db.destroy();
  });
});

describe('openDatabase write health', () => {
  // max_page_count stops the file growing exactly as a full disk does: SQLite answers SQLITE_FULL.
  it('notes a write refused for want of space, and forgets it at the next write that works', async () => {
    const file = path.join(tempDir(), 'site.sqlite');
    const { db, sqlite } = openDatabase(file);
    await migrateToLatest(db);
    const pages = Number(sqlite.pragma('page_count', { simple: true }));
    sqlite.pragma(`max_page_count = ${pages}`);
    const big = 'x'.repeat(64 * 1024);
    const insert = (name: string) =>
      db.transaction().execute((trx) =>
        trx
          .insertInto('categories')
          .values({ name, created_at: big } as never)
          .execute(),
      );
    const logged: string[] = [];
    const error = vi.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    try {
      await expect(insert('Too big')).rejects.toMatchObject({ code: 'SQLITE_FULL' });
      expect(writeTroubles().get(file)).toBe('disk full');
      expect(sqlite.prepare('select count(*) from categories').pluck().get()).toBe(0);
      // A read that works says nothing about writes.
      await db.selectFrom('categories').selectAll().execute();
      expect(writeTroubles().get(file)).toBe('disk full');

      sqlite.pragma(`max_page_count = ${pages * 100}`);
      await insert('Fits now');
      expect(writeTroubles().has(file)).toBe(false);
      expect(logged.join('\n')).toMatch(/a write failed \(database or disk is full\)[\s\S]*writes work again/);
    } finally {
      error.mockRestore();
      await db.destroy();
    }
  });
});
