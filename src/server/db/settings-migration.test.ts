import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase } from './client.ts';
import { migrationsFrom, revertMigrationsAfter } from '../../../tests/support/db.ts';

describe('migration 0006_settings', () => {
  it('marks the demo content of a site seeded before it, and goes down and up again', async () => {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      await migrateToLatest(db);
      await revertMigrationsAfter(db, '0006_settings');
      expect(await migrateDown(db)).toBe('0006_settings');
      const run = (statement: string) => sqlite.prepare(statement).run();
      // A seeded category, one the publisher made and filled, and one mixing both kinds of article.
      run("insert into categories (id, name, created_at) values (1, 'Seeded', 'now'), (2, 'Mine', 'now'), (3, 'Mixed', 'now')");
      const blog = (id: number, category: number, image: string) =>
        run(
          `insert into blogs (id, title, author, content, category_id, image, created_at, updated_at) values (${id}, 't', 'a', '', ${category}, '${image}', 'now', 'now')`,
        );
      blog(1, 1, '/uploads/demo/demo-1.png');
      blog(2, 2, '/uploads/images/abc-w1600.webp');
      blog(3, 3, '/uploads/demo/demo-2.png');
      blog(4, 3, '/uploads/images/def-w1600.webp');
      run(
        "insert into carousel_slides (id, title, image_url, alt_text, created_at) values (1, 's', '/uploads/demo/demo-1.png', 'a', 'now')",
      );
      run(
        "insert into carousel_slides (id, title, image_url, alt_text, created_at) values (2, 's', '/uploads/images/x-w1600.webp', 'a', 'now')",
      );

      expect(await migrateToLatest(db)).toEqual(migrationsFrom('0006_settings'));
      const marked = (table: string) =>
        (sqlite.prepare(`select id from ${table} where is_demo = 1 order by id`).all() as Array<{ id: number }>).map((r) => r.id);
      expect(marked('blogs')).toEqual([1, 3]);
      expect(marked('categories')).toEqual([1]);
      expect(marked('carousel_slides')).toEqual([1]);
      const tables = sqlite
        .prepare("select name from sqlite_master where name in ('site_settings', 'info_pages', 'owner_setup')")
        .all();
      expect(tables).toHaveLength(3);

      await revertMigrationsAfter(db, '0006_settings');
      expect(await migrateDown(db)).toBe('0006_settings');
      expect(sqlite.prepare("select name from sqlite_master where name = 'site_settings'").all()).toEqual([]);
      expect((sqlite.prepare('pragma table_info(blogs)').all() as Array<{ name: string }>).map((c) => c.name)).not.toContain(
        'is_demo',
      );
      expect(sqlite.prepare('select count(*) as n from blogs').get()).toEqual({ n: 4 });
    } finally {
      sqlite.close();
    }
  });
});
