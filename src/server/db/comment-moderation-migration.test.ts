import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest, openDatabase } from './client.ts';

describe('migration 0004_comment_moderation', () => {
  it('goes down and up again', async () => {
    const { db, sqlite } = openDatabase(':memory:');
    try {
      await migrateToLatest(db);
      const columns = () =>
        sqlite
          .prepare('pragma table_info(comments)')
          .all()
          .map((c) => (c as { name: string }).name);
      expect(columns()).toEqual(expect.arrayContaining(['status', 'held_reason', 'text_key']));

      expect(await migrateDown(db)).toBe('0005_publishing');
      expect(await migrateDown(db)).toBe('0004_comment_moderation');
      expect(columns()).not.toContain('status');
      const added = sqlite
        .prepare(
          "select name from sqlite_master where name in ('comment_blocklist', 'comment_settings', 'comments_status', 'comments_text_key')",
        )
        .all();
      expect(added).toEqual([]);

      expect(await migrateToLatest(db)).toEqual(['0004_comment_moderation', '0005_publishing']);
      expect(columns()).toEqual(expect.arrayContaining(['status', 'held_reason', 'text_key']));
    } finally {
      sqlite.close();
    }
  });
});
