import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedDatabase } from '../db/client.ts';
import { insertBlog, type BlogWrite } from '../db/repositories/blogs.ts';
import { insertCategory } from '../db/repositories/categories.ts';
import { buildFtsQuery, normalizeSearchText, searchBlogs } from './search.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';

const HOSTILE = [
  '"',
  '""',
  '"unbalanced',
  "'",
  "' OR 1=1--",
  '1 UNION SELECT password_hash FROM users',
  'AND',
  'OR',
  'NOT',
  'a AND b OR c NOT d',
  'NEAR',
  'NEAR(',
  'NEAR(a b, 3)',
  'title NEAR/2 body',
  '(',
  ')',
  '(a OR b',
  '*',
  'a*',
  '*a',
  '^',
  '^start',
  ':',
  'title:photosynthesis',
  '{title body}:x',
  '-x',
  '+x',
  '%',
  '_',
  '%_%',
  '\\',
  '\u0000',
  'a\u0000b',
  '😀',
  'cell 😀 structure',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '\uD800',
  'a\uDC00b',
  'x'.repeat(10_000),
  'word '.repeat(2_000),
  '"'.repeat(10_000),
  '东京大学',
  'हिन्दी व्याकरण',
  'café naïve',
  'cafe\u0301',
  'Ｆｕｌｌｗｉｄｔｈ',
  'ﬁnance',
  '<script>alert(1)</script>',
  '; DROP TABLE blogs; --',
  '\t\n\r',
  '   ',
  '',
];

describe('buildFtsQuery', () => {
  it('makes every word a quoted prefix term that must match', () => {
    expect(buildFtsQuery('Cell structure')).toBe('"cell"* "structure"*');
  });

  it('passes no operator, quote or symbol through', () => {
    expect(buildFtsQuery('"a" AND (b OR c) NOT d NEAR(e f) g* ^h title:i')).toBe(
      '"a"* "and"* "b"* "or"* "c"* "not"* "d"* "near"* "e"* "f"* "g"* "h"*',
    );
  });

  it('returns null when nothing searchable is left', () => {
    for (const text of ['', '   ', '"', '*', '^', ':', '%', '_', '()', '😀', '\u0000', '-+-']) {
      expect(buildFtsQuery(text), JSON.stringify(text)).toBeNull();
    }
  });

  it('drops repeated words and caps the number and length of terms', () => {
    expect(buildFtsQuery('cell Cell CELL')).toBe('"cell"*');
    const many = buildFtsQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))!;
    expect(many.split(' ')).toHaveLength(12);
    const long = buildFtsQuery('y'.repeat(10_000))!;
    expect(long).toBe(`"${'y'.repeat(64)}"*`);
  });

  it('keeps a word with combining marks whole, as the index tokenizer sees it', () => {
    expect(buildFtsQuery('हिन्दी')).toBe('"हिन्दी"*');
  });

  it.each(
    HOSTILE.map((text) => [text.length > 40 ? `${text.slice(0, 20)}… (${text.length} chars)` : JSON.stringify(text), text]),
  )('never produces a double quote inside a term for %s', (_label, text) => {
    const query = buildFtsQuery(text);
    if (query === null) return;
    for (const term of query.split(' ')) expect(term).toMatch(/^"[^"]+"\*$/);
  });
});

describe('normalizeSearchText (docs/product.md#validation-rules)', () => {
  it('ignores blank and whitespace-only text', () => {
    expect(normalizeSearchText(null)).toBeNull();
    expect(normalizeSearchText(undefined)).toBeNull();
    expect(normalizeSearchText('')).toBeNull();
    expect(normalizeSearchText('  \t\n ')).toBeNull();
  });

  it('trims and collapses spaces, and caps the length', () => {
    expect(normalizeSearchText('  cell   structure ')).toBe('cell structure');
    expect(normalizeSearchText('z'.repeat(1000))).toHaveLength(200);
  });
});

describe('search against a real FTS5 index', () => {
  let opened: OpenedDatabase;
  let biology: number;
  let physics: number;
  const ids: Record<string, number> = {};

  const blog = (title: string, body: string, categoryId: number | null, createdAt: string): [BlogWrite, string, string] => [
    buildBlogWrite({ title, content: `<p>${body}</p>`, category_id: categoryId }),
    body,
    createdAt,
  ];

  beforeAll(async () => {
    opened = await openMigratedDatabase();
    biology = (await insertCategory(opened.db, { name: 'Biology', sequence: 1 })).id;
    physics = (await insertCategory(opened.db, { name: 'Physics', sequence: 2 })).id;
    const rows: Array<[string, [BlogWrite, string, string]]> = [
      ['titleHit', blog('Photosynthesis explained', 'Plants turn light into sugar.', biology, '2026-01-01T00:00:00.000Z')],
      ['bodyHit', blog('Plant cells', 'Chloroplasts are where photosynthesis happens.', biology, '2026-03-01T00:00:00.000Z')],
      [
        'physics',
        blog('Light and photons', 'Photosynthesis needs photons of the right energy.', physics, '2026-02-01T00:00:00.000Z'),
      ],
      ['percent', blog('Percentages', 'Fifty % of the marks; snake_case names.', null, '2026-04-01T00:00:00.000Z')],
      ['hindi', blog('हिन्दी व्याकरण', 'संज्ञा और सर्वनाम', null, '2026-05-01T00:00:00.000Z')],
    ];
    for (const [key, [input, text, createdAt]] of rows) ids[key] = await insertBlog(opened.db, input, text, createdAt);
  });

  afterAll(() => opened.sqlite.close());

  it.each(
    HOSTILE.map((text) => [text.length > 40 ? `${text.slice(0, 20)}… (${text.length} chars)` : JSON.stringify(text), text]),
  )('runs the query built from %s without an FTS5 error', (_label, text) => {
    const query = buildFtsQuery(text);
    if (query === null) return;
    expect(() => opened.sqlite.prepare('select rowid from blogs_fts where blogs_fts match ?').all(query)).not.toThrow();
  });

  it.each(
    HOSTILE.map((text) => [text.length > 40 ? `${text.slice(0, 20)}… (${text.length} chars)` : JSON.stringify(text), text]),
  )('searchBlogs answers %s without raising', async (_label, text) => {
    const result = await searchBlogs(opened.db, { categoryId: null, search: normalizeSearchText(text), limit: 50, offset: 0 });
    expect(result.total).toBe(result.blogs.length);
  });

  it('ranks a title match above a body-only match, even an older one', async () => {
    const result = await searchBlogs(opened.db, { categoryId: null, search: 'photosynthesis', limit: 50, offset: 0 });
    expect(result.total).toBe(3);
    expect(result.blogs[0]!.id).toBe(ids.titleHit);
    expect(result.blogs.map((b) => b.id).sort()).toEqual([ids.titleHit, ids.bodyHit, ids.physics].sort());
  });

  it('matches word prefixes', async () => {
    const result = await searchBlogs(opened.db, { categoryId: null, search: 'photosynth', limit: 50, offset: 0 });
    expect(result.total).toBe(3);
    const photo = await searchBlogs(opened.db, { categoryId: null, search: 'photo', limit: 50, offset: 0 });
    expect(photo.blogs.map((b) => b.id)).toContain(ids.physics);
  });

  it('needs every word to match', async () => {
    const result = await searchBlogs(opened.db, {
      categoryId: null,
      search: 'photosynthesis chloroplasts',
      limit: 50,
      offset: 0,
    });
    expect(result.blogs.map((b) => b.id)).toEqual([ids.bodyHit]);
  });

  it('combines search and category', async () => {
    const result = await searchBlogs(opened.db, { categoryId: physics, search: 'photosynthesis', limit: 50, offset: 0 });
    expect(result.blogs.map((b) => b.id)).toEqual([ids.physics]);
    expect(result.total).toBe(1);
  });

  it('treats % and _ as nothing special', async () => {
    const percent = await searchBlogs(opened.db, { categoryId: null, search: '%', limit: 50, offset: 0 });
    expect(percent.total).toBe(0);
    const snake = await searchBlogs(opened.db, { categoryId: null, search: 'snake_case', limit: 50, offset: 0 });
    expect(snake.blogs.map((b) => b.id)).toEqual([ids.percent]);
  });

  it('finds words in other scripts', async () => {
    const result = await searchBlogs(opened.db, { categoryId: null, search: 'हिन्दी', limit: 50, offset: 0 });
    expect(result.blogs.map((b) => b.id)).toEqual([ids.hindi]);
  });

  it('lists everything newest first without a search, with the total beyond the page', async () => {
    const result = await searchBlogs(opened.db, { categoryId: null, search: null, limit: 2, offset: 1 });
    expect(result.total).toBe(5);
    expect(result.blogs.map((b) => b.id)).toEqual([ids.percent, ids.bodyHit]);
  });

  it('filters by category alone, and an unknown category has no blogs', async () => {
    const bio = await searchBlogs(opened.db, { categoryId: biology, search: null, limit: 50, offset: 0 });
    expect(bio.blogs.map((b) => b.id)).toEqual([ids.bodyHit, ids.titleHit]);
    const none = await searchBlogs(opened.db, { categoryId: 999, search: null, limit: 50, offset: 0 });
    expect(none).toEqual({ blogs: [], total: 0 });
  });
});
