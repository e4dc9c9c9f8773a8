import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase, type OpenedDatabase } from '../client.ts';

let opened: OpenedDatabase | undefined;
afterEach(() => opened?.sqlite.close());

const tables = (o: OpenedDatabase) =>
  (o.sqlite.prepare("select name from sqlite_master where type = 'table' order by name").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('migration 0003_search', () => {
  it('indexes the rows already there, and goes down to the old index with them', async () => {
    opened = openDatabase(':memory:');
    await migrateToLatest(opened.db);
    // Back to 0002, with rows in the old index, as a site that has not migrated yet has them.
    expect(await migrateDown(opened.db)).toBe('0005_publishing');
    expect(await migrateDown(opened.db)).toBe('0004_comment_moderation');
    expect(await migrateDown(opened.db)).toBe('0003_search');
    const { db, sqlite } = opened;
    sqlite
      .prepare("insert into blogs (id, title, author, content, created_at, updated_at) values (1, 'x', 'a', '', 'now', 'now')")
      .run();
    sqlite
      .prepare("insert into blogs (id, title, author, content, created_at, updated_at) values (2, 'y', 'a', '', 'now', 'now')")
      .run();
    sqlite.prepare("insert into blogs_fts (rowid, title, body) values (1, 'Plants', 'Photosynthesis الكِتَابُ')").run();
    sqlite.prepare("insert into blogs_fts (rowid, title, body) values (2, '学习', '东京大学的数学')").run();

    await migrateToLatest(opened.db);
    expect(tables(opened)).toEqual(expect.arrayContaining(['blogs_cjk', 'blogs_fts_vocab', 'pdf_texts']));
    const match = (table: string, query: string) =>
      sql<{ rowid: number }>`select rowid from ${sql.table(table)} where ${sql.table(table)} match ${query}`
        .execute(db)
        .then((r) => r.rows.map((row) => row.rowid));
    expect(await match('blogs_fts', '"photo"*')).toEqual([1]);
    expect(await match('blogs_fts', '"الكتاب"')).toEqual([1]);
    expect(await match('blogs_cjk', '"数学"')).toEqual([]);
    expect(await match('blogs_cjk', '"大学的"')).toEqual([2]);

    await migrateDown(opened.db);
    await migrateDown(opened.db);
    expect(await migrateDown(opened.db)).toBe('0003_search');
    expect(tables(opened)).not.toContain('pdf_texts');
    expect(tables(opened)).not.toContain('blogs_cjk');
    expect(sqlite.prepare('select rowid, title from blogs_fts order by rowid').all()).toEqual([
      { rowid: 1, title: 'Plants' },
      { rowid: 2, title: '学习' },
    ]);
  });
});
