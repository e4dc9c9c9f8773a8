import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { migrateToLatest, openDatabase } from '../db/client.ts';
import { findBlogById, insertBlog } from '../db/repositories/blogs.ts';
import { AppError } from '../errors.ts';
import { noPageCache, type AppContext } from '../context.ts';
import { createViewCounter, recordClick, VIEW_WINDOW_MS } from './clicks.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { openRateHitStore } from '../db/repositories/rate-hits.ts';

let app: AppContext;
let blogId: number;

beforeEach(async () => {
  const { db, sqlite } = openDatabase(':memory:');
  await migrateToLatest(db);
  app = { config: loadConfig({}), db, sqlite, pageCache: noPageCache, views: createViewCounter({ db }) };
  blogId = await insertBlog(db, buildBlogWrite(), 'x');
});

afterEach(async () => {
  await app.views!.stop();
  app.sqlite.close();
});

const clicksOf = async (id: number) => (await findBlogById(app.db, id))!.clicks;

describe('recordClick', () => {
  it('counts one view per address and article per window, written by the next flush', async () => {
    const t = 1_000_000_000;
    await Promise.all(Array.from({ length: 50 }, () => recordClick(app, blogId, '10.0.0.1', t)));
    await recordClick(app, blogId, '10.0.0.2', t);
    expect(await clicksOf(blogId)).toBe(0); // not yet written
    await app.views!.flush();
    expect(await clicksOf(blogId)).toBe(2);
    await recordClick(app, blogId, '10.0.0.1', t + VIEW_WINDOW_MS - 1);
    await recordClick(app, blogId, '10.0.0.1', t + VIEW_WINDOW_MS);
    await app.views!.flush();
    expect(await clicksOf(blogId)).toBe(3);
  });

  it('answers 404 for an unknown article, and a later real one still counts', async () => {
    const error = await recordClick(app, 999_999, '10.0.0.1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(404);
    await recordClick(app, blogId, '10.0.0.1');
    await app.views!.stop();
    expect(await clicksOf(blogId)).toBe(1);
  });

  it('counts one view per address and window across processes sharing the hit store, and keeps no address in it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'views-'));
    const file = path.join(dir, 'site-limits.sqlite');
    // Two serving processes: one database, one shared hit store, a view counter each.
    const one = openRateHitStore(file);
    const two = openRateHitStore(file);
    try {
      const first: AppContext = { ...app, hits: one, views: createViewCounter({ db: app.db, hits: one }) };
      const second: AppContext = { ...app, hits: two, views: createViewCounter({ db: app.db, hits: two }) };
      const t = 1_000_000_000;
      await recordClick(first, blogId, '10.0.0.1', t);
      await first.views!.stop();
      await recordClick(second, blogId, '10.0.0.1', t + 1);
      await recordClick(second, blogId, '10.0.0.2', t + 2);
      await second.views!.stop();
      expect(await clicksOf(blogId)).toBe(2);
      await recordClick(first, blogId, '10.0.0.1', t + VIEW_WINDOW_MS);
      await first.views!.stop();
      expect(await clicksOf(blogId)).toBe(3);
      const reader = new SQLite(file, { readonly: true });
      const keys = reader.prepare("select key from rate_hits where bucket = 'views'").pluck().all() as string[];
      reader.close();
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.join(' ')).not.toContain('10.0.0');
    } finally {
      one.close();
      two.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
