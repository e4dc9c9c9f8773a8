import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase } from './client.ts';
import { migrationsFrom, revertMigrationsAfter } from '../../../tests/support/db.ts';

const hasIndex = (sqlite: ReturnType<typeof openDatabase>['sqlite']) =>
  sqlite.prepare(`select 1 from sqlite_master where type = 'index' and name = 'blogs_pdf_created_visible'`).get() !== undefined;

describe('migration 0016_downloads_index', () => {
  it("adds the Downloads pages' index and takes it away again", async () => {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      await migrateToLatest(db);
      expect(hasIndex(sqlite)).toBe(true);
      await revertMigrationsAfter(db, '0016_downloads_index');
      expect(await migrateDown(db)).toBe('0016_downloads_index');
      expect(hasIndex(sqlite)).toBe(false);
      expect(await migrateToLatest(db)).toEqual(migrationsFrom('0016_downloads_index'));
      expect(hasIndex(sqlite)).toBe(true);
    } finally {
      sqlite.close();
    }
  });
});
