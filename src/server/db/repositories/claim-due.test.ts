import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type OpenedDatabase } from '../client.ts';
import { claimDueBlogs, insertBlog, nextPublishAt } from './blogs.ts';
import { buildBlogWrite } from '../../../../tests/support/builders.ts';

const opened: OpenedDatabase[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.sqlite.close();
});

describe('claimDueBlogs', () => {
  it('gives each due article to exactly one of several processes, and leaves the rest scheduled', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'claim-due-')), 'site.sqlite');
    const first = openDatabase(file);
    const second = openDatabase(file);
    opened.push(first, second);
    await migrateToLatest(first.db);
    const past = '2020-01-01T00:00:00.000Z';
    const future = '2999-01-01T00:00:00.000Z';
    const due: number[] = [];
    for (let n = 0; n < 20; n++)
      due.push(await insertBlog(first.db, buildBlogWrite({ status: 'scheduled', publish_at: past }), ''));
    const later = await insertBlog(first.db, buildBlogWrite({ status: 'scheduled', publish_at: future }), '');
    const now = new Date().toISOString();

    // Two connections, as two serving processes have. SQLite lets one writer in at a time, so
    // the second claim runs after the first committed and must find nothing left to claim.
    const a = await first.db.transaction().execute((trx) => claimDueBlogs(trx, now));
    const b = await second.db.transaction().execute((trx) => claimDueBlogs(trx, now));
    expect(a).toEqual(due);
    expect(b).toEqual([]);
    expect(await nextPublishAt(first.db)).toBe(future);
    const row = first.sqlite.prepare('select status from blogs where id = ?').get(later) as { status: string };
    expect(row.status).toBe('scheduled');
  });
});
