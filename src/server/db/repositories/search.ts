import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../client.ts';
import { isPublicBlog } from './visibility.ts';
import { foldIndexText, unspacedRuns, uploadedPdfPath } from '../search-text.ts';

/**
 * All the search SQL: keeping the indexes in step with the blogs, the ranked match ids (capped),
 * the snippets, the vocabulary and the extracted PDF texts.
 */

/** Writes (or rewrites) a blog's rows in both indexes; call inside the blog's transaction. */
export async function writeSearchRow(db: Db, id: number, title: string, bodyText: string, pdfLink: string | null): Promise<void> {
  const pdfPath = uploadedPdfPath(pdfLink);
  const pdfText = pdfPath ? ((await findPdfText(db, pdfPath))?.text ?? '') : '';
  await removeSearchRows(db, id);
  const row = { title: foldIndexText(title), body: foldIndexText(bodyText), pdf: foldIndexText(pdfText) };
  await db
    .insertInto('blogs_fts')
    .values({ rowid: id, ...row })
    .execute();
  const cjk = { title: unspacedRuns(row.title), body: unspacedRuns(row.body), pdf: unspacedRuns(row.pdf) };
  if (cjk.title || cjk.body || cjk.pdf)
    await db
      .insertInto('blogs_cjk')
      .values({ rowid: id, ...cjk })
      .execute();
  await bumpSearchIndexVersion(db);
}

export async function deleteSearchRow(db: Db, id: number): Promise<void> {
  await removeSearchRows(db, id);
  await bumpSearchIndexVersion(db);
}

async function removeSearchRows(db: Db, id: number): Promise<void> {
  await db.deleteFrom('blogs_fts').where('rowid', '=', id).execute();
  await db.deleteFrom('blogs_cjk').where('rowid', '=', id).execute();
}

/**
 * Every write to the word index bumps its version (migration 0010), after the write and in its
 * transaction, so a vocabulary read at a version always holds that version's words.
 */
async function bumpSearchIndexVersion(db: Db): Promise<void> {
  await db
    .updateTable('search_index_version')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

const indexVersionStatements = new WeakMap<SQLite.Database, SQLite.Statement>();

/** The word index's version (synchronous: one row by its key, checked before each search). */
export function readSearchIndexVersion(sqlite: SQLite.Database): number {
  let statement = indexVersionStatements.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare('select version from search_index_version where id = 1').pluck();
    indexVersionStatements.set(sqlite, statement);
  }
  return Number(statement.get() ?? 0);
}

/** Puts a PDF's new text into the index rows of every blog it is attached to. */
export async function refreshPdfColumn(db: Db, pdfPath: string, text: string): Promise<number> {
  const folded = foldIndexText(text);
  // Only articles with index rows: unpublished ones get theirs when they go public. A rowid
  // lookup per article: `id in (select rowid from blogs_fts)` listed every indexed row first,
  // about 12 ms at 10,000 articles on the serving thread, for each PDF.
  const blogs = await db
    .selectFrom('blogs')
    .select('id')
    .where('pdf_drive_link', '=', `/uploads/${pdfPath}`)
    .where(isPublicBlog())
    .where(sql<boolean>`exists (select 1 from blogs_fts where blogs_fts.rowid = blogs.id)`)
    .execute();
  for (const { id } of blogs) {
    await db.updateTable('blogs_fts').set({ pdf: folded }).where('rowid', '=', id).execute();
    const runs = unspacedRuns(folded);
    const existing = await db.selectFrom('blogs_cjk').select('rowid').where('rowid', '=', id).executeTakeFirst();
    if (existing) await db.updateTable('blogs_cjk').set({ pdf: runs }).where('rowid', '=', id).execute();
    else if (runs) {
      const words = await db.selectFrom('blogs_fts').select(['title', 'body']).where('rowid', '=', id).executeTakeFirstOrThrow();
      await db
        .insertInto('blogs_cjk')
        .values({ rowid: id, title: unspacedRuns(words.title), body: unspacedRuns(words.body), pdf: runs })
        .execute();
    }
  }
  if (blogs.length > 0) await bumpSearchIndexVersion(db);
  return blogs.length;
}

export function findPdfText(db: Db, pdfPath: string) {
  return db.selectFrom('pdf_texts').select(['text', 'status', 'pages']).where('path', '=', pdfPath).executeTakeFirst();
}

export async function savePdfText(db: Db, pdfPath: string, result: { text: string; pages: number; ok: boolean }): Promise<void> {
  const row = {
    text: result.text,
    pages: result.pages,
    status: result.ok ? ('ok' as const) : ('failed' as const),
    extracted_at: new Date().toISOString(),
  };
  await db
    .insertInto('pdf_texts')
    .values({ path: pdfPath, ...row })
    .onConflict((oc) => oc.column('path').doUpdateSet(row))
    .execute();
}

/** Links of attached PDFs the site holds whose text was never extracted. */
export async function listPdfLinksWithoutText(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('blogs')
    .select('pdf_drive_link')
    .distinct()
    .where('pdf_drive_link', 'like', '/uploads/%.pdf')
    .where(sql<boolean>`substr(pdf_drive_link, 10) not in (select path from pdf_texts)`)
    .execute();
  return rows.map((r) => r.pdf_drive_link!).filter((link) => uploadedPdfPath(link) !== null);
}

export interface MatchPlan {
  /** FTS5 expression for the word index (blogs_fts), or null when only unspaced words were typed. */
  words: string | null;
  /** FTS5 trigram expressions (3+ characters) for blogs_cjk. */
  trigrams: string | null;
  /** Unspaced words too short for a trigram (1-2 characters): substring scans of blogs_cjk. */
  shortRuns: string[];
  categoryId: number | null;
}

export interface RankedId {
  id: number;
  score: number;
}

function likePattern(run: string): string {
  return `%${run.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function constraints(plan: MatchPlan, rowid: string) {
  const parts = [];
  if (plan.categoryId !== null)
    parts.push(sql`${sql.raw(rowid)} in (select id from blogs where category_id = ${plan.categoryId})`);
  for (const run of plan.shortRuns) {
    const like = likePattern(run);
    parts.push(
      sql`${sql.raw(rowid)} in (select rowid from blogs_cjk where title like ${like} escape '\\' or body like ${like} escape '\\' or pdf like ${like} escape '\\')`,
    );
  }
  return parts;
}

/**
 * Ids of the newest `cap` matches, best first. Capping before ranking is what keeps a word found
 * in every article cheap: bm25 runs over at most `cap` rows, read newest first from the index.
 */
export async function findRankedIds(db: Db, plan: MatchPlan, cap: number): Promise<RankedId[]> {
  let source;
  if (plan.words !== null) {
    const parts = [sql`blogs_fts match ${plan.words}`, ...constraints(plan, 'blogs_fts.rowid')];
    if (plan.trigrams) parts.push(sql`blogs_fts.rowid in (select rowid from blogs_cjk where blogs_cjk match ${plan.trigrams})`);
    source = sql`select rowid as id, bm25(blogs_fts, 10.0, 1.0, 1.0) as score from blogs_fts where ${sql.join(parts, sql` and `)}`;
  } else if (plan.trigrams) {
    const parts = [sql`blogs_cjk match ${plan.trigrams}`, ...constraints(plan, 'blogs_cjk.rowid')];
    source = sql`select rowid as id, bm25(blogs_cjk, 10.0, 1.0, 1.0) as score from blogs_cjk where ${sql.join(parts, sql` and `)}`;
  } else if (plan.shortRuns.length > 0) {
    source = sql`select rowid as id, 0 as score from blogs_cjk where ${sql.join(constraints(plan, 'blogs_cjk.rowid'), sql` and `)}`;
  } else {
    return [];
  }
  const { rows } =
    await sql<RankedId>`select id, score from (${source} order by rowid desc limit ${cap}) order by score, id desc`.execute(db);
  return rows;
}

export interface SnippetRow {
  title: string;
  body: string;
  pdf: string;
}

/**
 * Snippets of each column for these rows, matches wrapped in \u0002 ... \u0003 (escaped and marked
 * up by the caller). One statement for the whole page: FTS5 evaluates a MATCH (merging the postings
 * of every word a prefix stands for) once per statement, and a rowid bound beside it (`rowid = ?`,
 * `rowid in (...)`) made it evaluate the match again for each id, about 1 to 8 ms each at 10,000
 * articles. `+rowid` keeps the ids a plain filter over one pass, bounded by their range. The
 * bounds are cast to integers: better-sqlite3 binds a JS number as a REAL, and FTS5 ignores a
 * rowid bound that is not an INTEGER, so the pass went over the whole match (about 0.6 ms for a
 * word in 10,000 articles) instead of the page's few rows.
 */
export async function readSnippets(db: Db, plan: MatchPlan, ids: number[], tokens: number): Promise<Map<number, SnippetRow>> {
  const table = plan.words !== null ? 'blogs_fts' : plan.trigrams ? 'blogs_cjk' : null;
  if (!table || ids.length === 0) return new Map();
  const expr = table === 'blogs_fts' ? plan.words! : plan.trigrams!;
  const t = sql.raw(table);
  const snip = (col: number) => sql<string>`snippet(${t}, ${sql.lit(col)}, char(2), char(3), '…', ${sql.lit(tokens)})`;
  const { rows } = await sql<SnippetRow & { id: number }>`
    select rowid as id, ${snip(0)} as title, ${snip(1)} as body, ${snip(2)} as pdf
    from ${t} where ${t} match ${expr}
      and rowid >= cast(${Math.min(...ids)} as integer) and rowid <= cast(${Math.max(...ids)} as integer)
      and +rowid in (select value from json_each(${JSON.stringify(ids)}))`.execute(db);
  return new Map(rows.map(({ id, ...row }) => [id, row]));
}

/** The first characters of a blog's indexed texts, for a result found by a substring scan. */
export async function readIndexedText(db: Db, id: number): Promise<SnippetRow | undefined> {
  const row = await db.selectFrom('blogs_cjk').select(['title', 'body', 'pdf']).where('rowid', '=', id).executeTakeFirst();
  return row && { title: row.title, body: row.body, pdf: row.pdf ?? '' };
}

/** Every distinct word of the index with the number of articles holding it. */
export async function listVocabulary(db: Db): Promise<{ term: string; doc: number }[]> {
  const { rows } = await sql<{ term: string; doc: number }>`select term, doc from blogs_fts_vocab`.execute(db);
  return rows;
}
