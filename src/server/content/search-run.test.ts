import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBlog, updateBlog } from '../db/repositories/blogs.ts';
import { insertCategory } from '../db/repositories/categories.ts';
import { refreshPdfColumn, savePdfText } from '../db/repositories/search.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { searchInProcess } from './search-page.ts';
import { RESULT_CAP, runSearch, type SearchRequest } from './search-run.ts';
import { createSearchIndex, type SearchIndex } from './search-vocabulary.ts';
import { snippetHtml } from './search-snippet.ts';

let opened: Awaited<ReturnType<typeof openMigratedDatabase>>;
let searchIndex: SearchIndex;
const ids: Record<string, number> = {};

const search = (text: string, extra: Partial<SearchRequest> = {}) =>
  searchInProcess(
    { db: opened.db, sqlite: opened.sqlite, searchIndex },
    { text, categoryId: null, page: 1, pageSize: 10, ...extra },
  );
const foundIds = async (text: string) => (await search(text)).hits.map((h) => h.blog.id);

beforeAll(async () => {
  opened = await openMigratedDatabase();
  searchIndex = createSearchIndex(opened.db, opened.sqlite);
  const { db } = opened;
  const add = async (key: string, title: string, text: string, pdfLink: string | null = null) => {
    ids[key] = await insertBlog(db, buildBlogWrite({ title, pdf_drive_link: pdfLink }), text);
  };
  await add('photo', 'How plants eat', 'Photosynthesis turns light into sugar in the leaves.');
  await add('thermo', 'Heat and work', 'The laws of thermodynamics in four short pages.');
  await add('pyth', 'Right triangles', 'Pythagoras showed that the squares add up.');
  await add('hindi', 'व्याकरण', 'हिन्दी व्याकरण के नियम और उदाहरण');
  await add('arabic', 'قواعد', 'الكِتَابُ في المكتبة المدرسية');
  await add('chinese', '学习笔记', '东京大学的数学课程非常有名');
  await add('script', 'Escaping', 'Never run <script>alert(1)</script> from a stranger.');
  await add('pdf', 'Attached notes', 'See the file.', '/uploads/pdfs/abc.pdf');
  await savePdfText(db, 'pdfs/abc.pdf', { text: 'The mitochondrion is the powerhouse.', pages: 1, ok: true });
  await refreshPdfColumn(db, 'pdfs/abc.pdf', 'The mitochondrion is the powerhouse.');
});

afterAll(() => opened.close());

describe('runSearch', () => {
  it('finds misspelled words through the vocabulary', async () => {
    expect(await foundIds('photosynthsis')).toEqual([ids.photo]);
    expect(await foundIds('thermodinamics')).toEqual([ids.thermo]);
    expect(await foundIds('pythagorus')).toEqual([ids.pyth]);
    expect((await search('photosynthsis')).correctedTo).toBe('photosynthesis');
  });

  it('finds a misspelled word beside a correct one, in either order', async () => {
    // A misspelling becomes a bracketed list of look-alikes; FTS5 needs an explicit AND beside it.
    expect(await foundIds('photosynthsis leaves')).toEqual([ids.photo]);
    expect(await foundIds('leaves photosynthsis')).toEqual([ids.photo]);
    expect(await foundIds('thermodinamics pythagorus')).toEqual([]);
  });

  it('never fails on hostile input', async () => {
    for (const text of [
      '"',
      'NEAR(a b, 3)',
      'title:x',
      '*',
      '^a',
      '(',
      '\u0000',
      '\u0002x\u0003',
      '😀',
      'x'.repeat(5000),
      '大',
      '%_\\',
    ]) {
      await expect(search(text)).resolves.toBeDefined();
    }
  });

  it('finds nothing for a word far from every known word', async () => {
    expect(await foundIds('zzqxv')).toEqual([]);
  });

  it('finds words in Hindi, Arabic (with or without vowel marks) and Chinese (no spaces)', async () => {
    expect(await foundIds('व्याकरण')).toEqual([ids.hindi]);
    expect(await foundIds('الكتاب')).toEqual([ids.arabic]);
    expect(await foundIds('المكتبة')).toEqual([ids.arabic]);
    expect(await foundIds('数学课程')).toEqual([ids.chinese]);
    expect(await foundIds('大学')).toEqual([ids.chinese]);
  });

  it('finds a word that is only in the attached PDF and says so', async () => {
    const answer = await search('mitochondrion');
    expect(answer.hits.map((h) => h.blog.id)).toEqual([ids.pdf]);
    expect(answer.hits[0]!.snippet.where).toEqual(['pdf']);
    expect(snippetHtml(answer.hits[0]!.snippet.text)).toContain('<mark>mitochondrion</mark>');
  });

  it('keeps the PDF text when the blog is saved again', async () => {
    await updateBlog(
      opened.db,
      ids.pdf!,
      buildBlogWrite({ title: 'Attached notes, edited', pdf_drive_link: '/uploads/pdfs/abc.pdf' }),
      'x',
    );
    expect(await foundIds('powerhouse')).toEqual([ids.pdf]);
  });

  it('names where the words matched and escapes the snippet', async () => {
    const [hit] = (await search('escaping script')).hits;
    expect(hit!.snippet.where).toEqual(['title', 'text']);
    const html = snippetHtml(hit!.snippet.text);
    expect(html).toContain('&lt;<mark>script</mark>&gt;');
    expect(html).not.toContain('<script');
  });

  it("shows each result's own snippet when several articles match", async () => {
    const db = opened.db;
    const alpha = await insertBlog(db, buildBlogWrite({ title: 'Glacier one' }), 'Moraine alpha words about glaciers.');
    const beta = await insertBlog(db, buildBlogWrite({ title: 'Glacier two' }), 'Moraine beta words about glaciers.');
    const hits = (await search('moraine')).hits;
    expect(hits.map((h) => h.blog.id).sort()).toEqual([alpha, beta].sort());
    for (const hit of hits) expect(hit.snippet.text).toContain(hit.blog.id === alpha ? 'alpha' : 'beta');
  });

  it('reads the snippets of a whole page in one statement, not one per result', async () => {
    const db = opened.db;
    for (const word of ['gamma', 'delta', 'epsilon']) {
      await insertBlog(db, buildBlogWrite({ title: `Drumlin ${word}` }), `Drumlin ${word} words about ice.`);
    }
    // Each statement evaluates the whole match again (every word a prefix stands for).
    const statements: string[] = [];
    const counting: KyselyPlugin = {
      transformQuery: ({ node }) => (statements.push(JSON.stringify(node)), node),
      transformResult: async ({ result }) => result,
    };
    const counted = db.withPlugin(counting);
    const answer = await searchInProcess(
      { db: counted, sqlite: opened.sqlite, searchIndex: createSearchIndex(counted, opened.sqlite) },
      { text: 'drumlin', categoryId: null, page: 1, pageSize: 10 },
    );
    expect(answer.hits).toHaveLength(3);
    for (const hit of answer.hits) expect(hit.snippet.text).toContain(hit.blog.title.split(' ')[1]!);
    expect(statements.filter((text) => text.includes('snippet(')).length).toBe(1);
  });

  it('searches a word only one indexed word starts with as that word, with the same answer, and sees new words at once', async () => {
    // The match expressions FTS5 is given: the statements' string values that are quoted terms.
    const matches: string[] = [];
    const values = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(values);
      if (!node || typeof node !== 'object') return;
      const { kind, value } = node as { kind?: string; value?: unknown };
      if (kind === 'ValueNode' && typeof value === 'string' && value.startsWith('"')) matches.push(value);
      Object.values(node).forEach(values);
    };
    const recording: KyselyPlugin = {
      transformQuery: ({ node }) => (values(node), node),
      transformResult: async ({ result }) => result,
    };
    const db = opened.db.withPlugin(recording);
    const request = { text: 'photosynth light', categoryId: null, page: 1, pageSize: 10 };
    const index = createSearchIndex(db, opened.sqlite);
    const fast = await runSearch(db, request, index);
    expect(fast.hits.map((h) => h.blog.id)).toEqual([ids.photo]);
    expect(matches).toContain('"photosynthesis" AND "light"');
    expect(matches.some((m) => m.includes('*'))).toBe(false);
    // The same answer as the prefixes give (an index whose version never matches its vocabulary).
    let calls = 0;
    const prefixes = await runSearch(db, request, { loadVocabulary: index.loadVocabulary, version: () => -1 - calls++ });
    expect(matches.at(-1)).toBe('"photosynth"* AND "light"*');
    expect(prefixes).toEqual(fast);
    // A word written since the vocabulary was read is found at once.
    const newer = await insertBlog(opened.db, buildBlogWrite({ title: 'Bacteria' }), 'Photosynthetic bacteria need light.');
    expect((await runSearch(db, request, index)).hits.map((h) => h.blog.id).sort()).toEqual([ids.photo, newer].sort());
  });

  it('caps the count of a word in very many articles', async () => {
    const db = opened.db;
    const category = await insertCategory(db, { name: 'Bulk', sequence: 0 });
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < RESULT_CAP + 5; i++) {
        await insertBlog(trx, buildBlogWrite({ title: `Bulk ${i}`, category_id: category.id }), 'commonword appears here');
      }
    });
    const answer = await search('commonword', { page: 3, pageSize: 1 });
    expect(answer).toMatchObject({ total: RESULT_CAP, capped: true });
    expect(answer.hits).toHaveLength(1);
    expect((await search('commonword', { categoryId: category.id + 1 })).total).toBe(0);

    // The API's slice: ids only, in the order of the ranked pages, never past the cap.
    const pages = await Promise.all([1, 2, 3].map((page) => search('commonword', { page, pageSize: 2 })));
    const slice = await search('commonword', { idSlice: { offset: 2, limit: 4 } });
    expect(slice).toMatchObject({ total: RESULT_CAP, capped: true, hits: [] });
    expect(slice.ids).toEqual(pages.slice(1).flatMap((p) => p.hits.map((h) => h.blog.id)));
    expect((await search('commonword', { idSlice: { offset: RESULT_CAP - 1, limit: 10 } })).ids).toHaveLength(1);
  }, 60_000);
});
