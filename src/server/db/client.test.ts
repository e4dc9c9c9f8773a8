import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from './client.ts';
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
