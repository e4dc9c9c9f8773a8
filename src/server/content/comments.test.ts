import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { insertBlog } from '../db/repositories/blogs.ts';
import { listCommentsForBlog } from '../db/repositories/comments.ts';
import { AppError } from '../errors.ts';
import { createRateLimiter } from '../api/rate-limit.ts';
import { createPageCache, type AppContext } from '../context.ts';
import { tagName } from '../page-store/site-tags.ts';
import { postComment, type PostedComment } from './comments.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';

let app: AppContext;
let blogId: number;
let changes: string[][];

beforeEach(async () => {
  const { db, sqlite } = await openMigratedDatabase();
  changes = [];
  // Posting itself is tested here, as a plain API client would; the spam rules (the form token
  // among them) have comments-moderation.test.ts.
  const config = loadConfig({ COMMENT_REQUIRE_FORM_TOKEN: 'false' });
  app = { config, db, sqlite, pageCache: createPageCache(async (tags) => void changes.push(tags.map(tagName))) };
  blogId = await insertBlog(db, buildBlogWrite(), 'x');
});

afterEach(() => app.sqlite.close());

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

const limiter = () => createRateLimiter({ limit: 5, windowMs: 600_000 });

describe('postComment', () => {
  it('stores the comment as plain text and refreshes the pages that show it', async () => {
    const body = { username: ' Asha ', comment: '<b>Hi</b>\r\nthere\u0000', contact: 'asha@example.org' };
    const posted = (await postComment(app, { blogId, body, clientKey: '1.2.3.4' }, limiter())) as PostedComment;
    expect(posted).toMatchObject({ username: 'Asha', comment: '<b>Hi</b>\nthere' });
    expect(Object.keys(posted).sort()).toEqual(['comment', 'created_at', 'id', 'live_ms', 'username']);
    expect(typeof posted.live_ms).toBe('number');
    expect(Number.isNaN(Date.parse(posted.created_at))).toBe(false);
    const stored = await listCommentsForBlog(app.db, blogId);
    expect(stored.map((c) => c.comment)).toEqual(['<b>Hi</b>\nthere']);
    const contact = await app.db.selectFrom('comments').select('contact').where('id', '=', posted.id).executeTakeFirstOrThrow();
    expect(contact.contact).toBe('asha@example.org');
    expect(changes).toEqual([[`comments:${blogId}`]]);
  });

  it('answers 404 for an unknown blog and stores nothing', async () => {
    const error = await rejection(
      postComment(app, { blogId: blogId + 1, body: { username: 'A', comment: 'B' }, clientKey: 'k' }, limiter()),
    );
    expect(error.status).toBe(404);
    expect(changes).toEqual([]);
  });

  it('answers 400 for invalid input before touching the database', async () => {
    const error = await rejection(postComment(app, { blogId, body: { username: ' ', comment: '' }, clientKey: 'k' }, limiter()));
    expect(error.status).toBe(400);
    expect(await listCommentsForBlog(app.db, blogId)).toEqual([]);
  });

  it('allows 5 comments per address, then answers 429 with Retry-After', async () => {
    let t = 0;
    const clocked = createRateLimiter({ limit: 5, windowMs: 600_000, now: () => t });
    const post = (clientKey: string) => postComment(app, { blogId, body: { username: 'A', comment: 'B' }, clientKey }, clocked);
    for (let i = 0; i < 5; i++) {
      await post('1.2.3.4');
      t += 1_000;
    }
    const error = await rejection(post('1.2.3.4'));
    expect(error.status).toBe(429);
    expect(error.headers).toEqual({ 'Retry-After': '595' });
    expect(error.message).toMatch(/try again in 10 minutes/);
    expect(await listCommentsForBlog(app.db, blogId)).toHaveLength(5);
    await expect(post('5.6.7.8')).resolves.toMatchObject({ username: 'A' });
    t += 595_000;
    await expect(post('1.2.3.4')).resolves.toMatchObject({ username: 'A' });
  });

  it('does not count invalid or misdirected posts against the limit', async () => {
    const one = createRateLimiter({ limit: 1, windowMs: 600_000 });
    await rejection(postComment(app, { blogId, body: {}, clientKey: 'k' }, one));
    await rejection(postComment(app, { blogId: 999, body: { username: 'A', comment: 'B' }, clientKey: 'k' }, one));
    await expect(postComment(app, { blogId, body: { username: 'A', comment: 'B' }, clientKey: 'k' }, one)).resolves.toBeDefined();
  });
});
