import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase } from './client.ts';
import { migrationsFrom, revertMigrationsAfter } from '../../../tests/support/db.ts';

const ftsDefinition = (sqlite: ReturnType<typeof openDatabase>['sqlite']) =>
  (sqlite.prepare(`select sql from sqlite_master where name = 'blogs_fts'`).get() as { sql: string }).sql;

describe('migration 0009_search_prefix4', () => {
  it('rebuilds the word index with a 4-character prefix index, keeping every row, and goes back', async () => {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      await migrateToLatest(db);
      await revertMigrationsAfter(db, '0009_search_prefix4');
      expect(await migrateDown(db)).toBe('0009_search_prefix4');
      expect(ftsDefinition(sqlite)).toContain(`prefix = '2 3'`);
      sqlite
        .prepare(
          `insert into blogs_fts (rowid, title, body, pdf) values (7, 'Exam method', 'An example of the method', 'examined')`,
        )
        .run();

      expect(await migrateToLatest(db)).toEqual(migrationsFrom('0009_search_prefix4'));
      expect(ftsDefinition(sqlite)).toContain(`prefix = '2 3 4'`);
      const match = (expr: string) => sqlite.prepare('select rowid, pdf from blogs_fts where blogs_fts match ?').all(expr);
      expect(match('"exam"*')).toEqual([{ rowid: 7, pdf: 'examined' }]);
      expect(sqlite.prepare(`select doc from blogs_fts_vocab where term = 'example'`).get()).toEqual({ doc: 1 });

      await revertMigrationsAfter(db, '0009_search_prefix4');
      expect(await migrateDown(db)).toBe('0009_search_prefix4');
      expect(ftsDefinition(sqlite)).toContain(`prefix = '2 3'`);
      expect(match('"metho"*')).toEqual([{ rowid: 7, pdf: 'examined' }]);
    } finally {
      sqlite.close();
    }
  });
});
