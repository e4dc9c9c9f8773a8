import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase } from './client.ts';
import { migrationsFrom, revertMigrationsAfter } from '../../../tests/support/db.ts';

describe('migration 0007_info_page_revisions', () => {
  it('turns the kept earlier text and the current one into revisions, drops previous_*, and goes back', async () => {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      await migrateToLatest(db);
      await revertMigrationsAfter(db, '0007_info_page_revisions');
      expect(await migrateDown(db)).toBe('0007_info_page_revisions');
      // About was saved once (its earlier text is the built-in one); Contact twice.
      sqlite
        .prepare(
          `insert into info_pages (slug, content, content_source, updated_at, previous_content, previous_content_source, previous_updated_at)
           values ('about', '<p>Ours</p>', 'Ours', '2026-02-01T00:00:00.000Z', '<p>Built in</p>', null, null),
                  ('contact', '<p>Mail us</p>', 'Mail us', '2026-03-02T00:00:00.000Z', '<p>Call us</p>', 'Call us', '2026-03-01T00:00:00.000Z')`,
        )
        .run();

      expect(await migrateToLatest(db)).toEqual(migrationsFrom('0007_info_page_revisions'));
      const revisions = sqlite
        .prepare(
          'select slug, content, content_source, user_id, username, action, created_at from info_page_revisions order by id',
        )
        .all();
      expect(revisions).toEqual([
        {
          slug: 'about',
          content: '<p>Built in</p>',
          content_source: null,
          user_id: null,
          username: 'an admin',
          action: 'builtin',
          created_at: '2026-02-01T00:00:00.000Z',
        },
        {
          slug: 'contact',
          content: '<p>Call us</p>',
          content_source: 'Call us',
          user_id: null,
          username: 'an admin',
          action: 'update',
          created_at: '2026-03-01T00:00:00.000Z',
        },
        {
          slug: 'about',
          content: '<p>Ours</p>',
          content_source: 'Ours',
          user_id: null,
          username: 'an admin',
          action: 'update',
          created_at: '2026-02-01T00:00:00.000Z',
        },
        {
          slug: 'contact',
          content: '<p>Mail us</p>',
          content_source: 'Mail us',
          user_id: null,
          username: 'an admin',
          action: 'update',
          created_at: '2026-03-02T00:00:00.000Z',
        },
      ]);
      const columns = () => (sqlite.prepare('pragma table_info(info_pages)').all() as Array<{ name: string }>).map((c) => c.name);
      expect(columns()).toEqual(['slug', 'content', 'content_source', 'updated_at']);

      // A save after the migration, then back down: the revision before the newest is the earlier text again.
      sqlite
        .prepare(
          "insert into info_page_revisions (slug, content, content_source, user_id, username, action, created_at) values ('contact', '<p>Write</p>', null, 1, 'maria', 'update', '2026-04-01T00:00:00.000Z')",
        )
        .run();
      sqlite.prepare("update info_pages set content = '<p>Write</p>', content_source = null where slug = 'contact'").run();
      await revertMigrationsAfter(db, '0007_info_page_revisions');
      expect(await migrateDown(db)).toBe('0007_info_page_revisions');
      expect(sqlite.prepare("select name from sqlite_master where name = 'info_page_revisions'").all()).toEqual([]);
      expect(
        sqlite
          .prepare('select slug, previous_content, previous_content_source, previous_updated_at from info_pages order by slug')
          .all(),
      ).toEqual([
        { slug: 'about', previous_content: '<p>Built in</p>', previous_content_source: null, previous_updated_at: null },
        {
          slug: 'contact',
          previous_content: '<p>Mail us</p>',
          previous_content_source: 'Mail us',
          previous_updated_at: '2026-03-02T00:00:00.000Z',
        },
      ]);
    } finally {
      sqlite.close();
    }
  });
});
