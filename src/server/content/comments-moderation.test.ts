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
/** A token from a form that loaded a minute ago: what the comment island sends. */
let formToken: string;
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
  formToken = await issueFormToken(db, Date.now() - 60_000);
});

afterEach(() => app.sqlite.close());

const post = (body: Record<string, unknown>, target = blogId) =>
  postComment(
    app,
    { blogId: target, body: { username: 'Reader', form_token: formToken, ...body }, clientKey: 'k' },
    createRateLimiter({ limit: 100, windowMs: 1 }),
  );

const published = { id: expect.any(Number) };
const held = { status: 'pending', message: expect.stringMatching(/awaiting approval/) };

async function heldReasons(): Promise<Array<string | null>> {
  const { items } = await listCommentsForModeration(app.db, 'pending', { limit: 100, offset: 0 });
  return items.map((item) => item.held_reason);
}

describe('spam rules hold a comment for moderation', () => {
  it.each([
    ['the hidden field', { comment: 'Nice notes', subject: 'hello' }, 'Hidden field filled in'],
    ['too many links', { comment: 'http://a.test http://b.test http://c.test' }, 'Too many links'],
    ['a forged form token', { comment: 'Nice notes', form_token: '1700000000000.x' }, 'Form token not valid'],
    ['no form token at all', { comment: 'Nice notes', form_token: undefined }, 'Not sent from the comment form (no form token)'],
    ['bare domains', { comment: 'See example.com/x, spam.example/y and x.ru' }, 'Too many links'],
    ['links disguised with look-alike letters', { comment: 'httр://a.test httр://b.test httр://c.test' }, 'Too many links'],
    ['a link in the contact field', { comment: 'See http://a.test and b.ru', contact: 'spam.example' }, 'Too many links'],
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
    expect(await post({ comment: 'Cheap pills here' })).toMatchObject(published);
    await saveBlocklist(app.db, { words: ['  CHEAP pills ', ''] });
    expect(await post({ comment: 'More cheap   pills here' })).toMatchObject({ status: 'pending' });
  });

  it('a blocked word spelt with look-alike, invisible or dotted letters, in any field', async () => {
    await saveBlocklist(app.db, { words: ['casino'] });
    for (const body of [
      { comment: 'Best саsinо bonus' }, // Cyrillic с, а, о
      { comment: 'Best cas\u200Bino bonus' },
      { comment: 'Best ċaṡino bonus' },
      { comment: 'Nice notes', contact: 'саsinо' },
      { comment: 'Nice notes', username: 'Ｃａｓｉｎｏ' },
    ])
      expect(await post(body), JSON.stringify(body)).toMatchObject(held);
    expect(await heldReasons()).toEqual(Array(5).fill('Contains a blocked word'));
    expect(await listCommentsForBlog(app.db, blogId)).toEqual([]);
  });

  it('the same text a third time within a day, on any article', async () => {
    const other = await insertBlog(app.db, buildBlogWrite(), 'x');
    const third = await insertBlog(app.db, buildBlogWrite(), 'x');
    const text = 'Visit my profile for the best study tips!';
    expect(await post({ comment: text })).toMatchObject({ comment: text });
    expect(await post({ comment: text.toUpperCase() }, other)).toMatchObject(published);
    expect(await post({ comment: `${text}!!` }, third)).toMatchObject(held);
  });

  it('a duplicate plus one word, on the same article or a third time anywhere', async () => {
    const other = await insertBlog(app.db, buildBlogWrite(), 'x');
    const third = await insertBlog(app.db, buildBlogWrite(), 'x');
    const text = 'Great article, visit my profile for the best study tips';
    expect(await post({ comment: text })).toMatchObject(published);
    expect(await post({ comment: `${text} now` }, other)).toMatchObject(published);
    expect(await post({ comment: `${text} today` })).toMatchObject(held);
    expect(await post({ comment: `Wow, ${text}` }, third)).toMatchObject(held);
    // Disguised letters make no new text either, on a fourth article.
    const fourth = await insertBlog(app.db, buildBlogWrite(), 'x');
    const disguised = 'Grеаt аrticle, visit my prоfile for thе bеst study tips\u200B'; // Cyrillic е, а, о
    expect(await post({ comment: disguised }, fourth)).toMatchObject(held);
    expect(await heldReasons()).toEqual(Array(3).fill('Same or nearly the same text posted repeatedly'));
  });

  it('but neither two links alone nor short common comments from many readers', async () => {
    expect(await post({ comment: 'See http://a.test and http://b.test' })).toMatchObject(published);
    for (let i = 0; i < 3; i++) expect(await post({ comment: 'Thanks! Great article.' })).toMatchObject(published);
    expect(await countPendingComments(app.db)).toBe(0);
  });

  it('but not ordinary text in any language, with numbers and abbreviations', async () => {
    await saveBlocklist(app.db, { words: ['casino', 'porn', 'sex', 'loan', 'cheap pills'] });
    for (const comment of [
      'Pi is about 3.14, e.g. in Fig. 2.1, i.e. close enough. It ended.Next chapter please!',
      'Спасибо за статью, всё очень понятно объяснено. См. рис. 3, т.е. пример 2.1.',
      'شكرا جزيلا على هذا المقال المفيد، الفصل ٣ كان واضحا جدا.',
      '谢谢你的文章，非常有帮助。第3.1节写得很清楚。',
    ])
      expect(await post({ comment, contact: 'reader@example.org' }), comment).toMatchObject(published);
    expect(await countPendingComments(app.db)).toBe(0);
  });
});

describe('the cap on comments readers never see', () => {
  it('deletes the oldest past COMMENT_HELD_MAX: spam first, then held ones, never approved ones', async () => {
    app = { ...app, config: loadConfig({ COMMENT_HELD_MAX: '10' }) };
    const approved = await post({ comment: 'A real comment' });
    const marked = await post({ comment: 'Marked as spam later' });
    const markedId = 'id' in marked ? marked.id : 0;
    await moderateComments(app, { ids: [markedId], action: 'spam' });
    for (let i = 1; i <= 11; i++) expect(await post({ comment: `bot post ${i}`, subject: 'x' })).toMatchObject(held);

    const pending = await listCommentsForModeration(app.db, 'pending', { limit: 100, offset: 0 });
    // 12 unseen past a cap of 10: the spam one went, then the oldest held one.
    expect(pending.items.map((c) => c.comment).reverse()).toEqual(Array.from({ length: 10 }, (_, i) => `bot post ${i + 2}`));
    expect((await listCommentsForModeration(app.db, 'spam', { limit: 10, offset: 0 })).total).toBe(0);
    expect(await listCommentsForBlog(app.db, blogId)).toEqual([expect.objectContaining({ comment: 'A real comment' })]);
    expect(approved).toMatchObject(published);
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
