import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { insertBlog } from '../db/repositories/blogs.ts';
import { listCommentsForBlog } from '../db/repositories/comments.ts';
import { createRateLimiter } from '../api/rate-limit.ts';
import { createPageCache, type AppContext } from '../context.ts';
import { tagName } from '../page-store/site-tags.ts';
import { postComment } from './comments.ts';
import { countPendingComments, listCommentsForModeration, moderateComments } from './comments-admin.ts';
import { saveBlocklist } from './spam-blocklist.ts';
import { issueFormToken } from './spam-token.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';

let app: AppContext;
let blogId: number;
let changes: string[][];
/** The tags each change named as taken down (its pages are never answered stale once it answers). */
let takeDowns: string[][];

beforeEach(async () => {
  const { db, sqlite } = await openMigratedDatabase();
  changes = [];
  takeDowns = [];
  const pageCache = createPageCache(async (tags, takenDown) => {
    changes.push(tags.map(tagName));
    takeDowns.push(takenDown.map(tagName));
  });
  app = { config: loadConfig({}), db, sqlite, pageCache };
  blogId = await insertBlog(db, buildBlogWrite(), 'x');
});

afterEach(() => app.sqlite.close());

const post = (body: Record<string, unknown>) =>
  postComment(
    app,
    { blogId, body: { username: 'Reader', ...body }, clientKey: 'k' },
    createRateLimiter({ limit: 100, windowMs: 1 }),
  );

describe('spam rules hold a comment for moderation', () => {
  it.each([
    ['the hidden field', { comment: 'Nice notes', subject: 'hello' }, 'Hidden field filled in'],
    ['too many links', { comment: 'http://a.test http://b.test http://c.test' }, 'Too many links'],
    ['a forged form token', { comment: 'Nice notes', form_token: '1700000000000.x' }, 'Form token not valid'],
  ])('%s', async (_name, body, reason) => {
    expect(await post(body)).toEqual({ status: 'pending', message: expect.stringMatching(/awaiting approval/) });
    expect(await listCommentsForBlog(app.db, blogId)).toEqual([]);
    expect(changes).toEqual([]);
    const { items } = await listCommentsForModeration(app.db, 'pending', { limit: 10, offset: 0 });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ status: 'pending', held_reason: reason, blog_id: blogId });
  });

  it('a form posted sooner than the minimum time after it loaded', async () => {
    const token = await issueFormToken(app.db);
    expect(await post({ comment: 'Nice notes', form_token: token })).toMatchObject({ status: 'pending' });
  });

  it('a blocked word, once the admin lists it', async () => {
    expect(await post({ comment: 'Cheap pills here' })).toMatchObject({ id: expect.any(Number) });
    await saveBlocklist(app.db, { words: ['  CHEAP pills ', ''] });
    expect(await post({ comment: 'More cheap   pills here' })).toMatchObject({ status: 'pending' });
  });

  it('the same text a third time within a day, on any article', async () => {
    const other = await insertBlog(app.db, buildBlogWrite(), 'x');
    const text = 'Visit my profile for the best study tips!';
    expect(await post({ comment: text })).toMatchObject({ comment: text });
    await postComment(app, { blogId: other, body: { username: 'B', comment: text.toUpperCase() }, clientKey: 'k' });
    expect(await post({ comment: `${text}!!` })).toMatchObject({ status: 'pending' });
  });

  it('but neither a missing token nor two links alone', async () => {
    expect(await post({ comment: 'See http://a.test and http://b.test' })).toMatchObject({ id: expect.any(Number) });
    expect(await countPendingComments(app.db)).toBe(0);
  });
});

describe('moderateComments', () => {
  it('approves held comments in bulk and refreshes their articles', async () => {
    await post({ comment: 'one', subject: 'x' });
    await post({ comment: 'two', subject: 'x' });
    const { items } = await listCommentsForModeration(app.db, 'pending', { limit: 10, offset: 0 });
    const answer = await moderateComments(app, { ids: items.map((c) => c.id), action: 'approve' });
    expect(answer).toMatchObject({ changed: 2, pending: 0, message: '2 comments approved' });
    expect((await listCommentsForBlog(app.db, blogId)).map((c) => c.comment)).toEqual(['one', 'two']);
    expect(changes).toEqual([[`comments:${blogId}`]]);
    expect(takeDowns).toEqual([[]]);
  });

  it('marks as spam (hidden) and deletes', async () => {
    const shown = await post({ comment: 'shown' });
    const id = 'id' in shown ? shown.id : 0;
    await moderateComments(app, { ids: [id], action: 'spam' });
    expect(await listCommentsForBlog(app.db, blogId)).toEqual([]);
    expect((await listCommentsForModeration(app.db, 'spam', { limit: 10, offset: 0 })).total).toBe(1);
    expect(await moderateComments(app, { ids: [id], action: 'delete' })).toMatchObject({ changed: 1 });
    await expect(moderateComments(app, { ids: [id], action: 'delete' })).rejects.toMatchObject({ status: 404 });
    // Posting it showed it; hiding it and deleting it each took it down.
    expect(takeDowns).toEqual([[], [`comments:${blogId}`], [`comments:${blogId}`]]);
  });

  it('refuses a bad action or id list with 400', async () => {
    await expect(moderateComments(app, { ids: [1], action: 'publish' })).rejects.toMatchObject({ status: 400 });
    await expect(moderateComments(app, { ids: [], action: 'approve' })).rejects.toMatchObject({ status: 400 });
    await expect(moderateComments(app, { ids: ['1'], action: 'approve' })).rejects.toMatchObject({ status: 400 });
  });
});
