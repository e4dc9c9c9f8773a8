import { type Kysely, sql } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead. The text
// helpers below are copies, not imports, so this migration keeps doing what it did when it shipped.

/**
 * Search, rebuilt for speed, any script and attached PDFs:
 * - blogs_fts gains a `pdf` column (the attached PDF's text), prefix indexes for 2 and 3
 *   characters (a short prefix no longer merges thousands of posting lists), and combining marks
 *   as word characters, so a Hindi or Arabic word is one token rather than a handful of fragments.
 * - blogs_cjk: a trigram index over only the runs of scripts written without spaces (Chinese,
 *   Japanese, Thai...), where a word cannot be told apart by spaces; small on a Latin-script site.
 * - blogs_fts_vocab: the index's vocabulary, which the misspelling search compares words with.
 * - pdf_texts: the text extracted from each uploaded PDF, keyed by its path under UPLOADS_DIR.
 *   PDFs already attached are read at the first server start after this migration.
 */
const FTS_OPTIONS = `tokenize = "unicode61 remove_diacritics 2 categories 'L* N* Co M*'", prefix = '2 3'`;

const UNSPACED_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]+/gu;
const ARABIC_MARKS = /[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed\u0640]/g;

function indexText(text: string): string {
  return text.normalize('NFKC').replace(ARABIC_MARKS, '');
}

function unspacedRuns(text: string): string {
  return (text.match(UNSPACED_RUN) ?? []).join(' ');
}

interface FtsRow {
  rowid: number;
  title: string;
  body: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table blogs_fts rename to blogs_fts_old`.execute(db);
  await sql.raw(`create virtual table blogs_fts using fts5(title, body, pdf, ${FTS_OPTIONS})`).execute(db);
  await sql`create virtual table blogs_cjk using fts5(title, body, pdf, tokenize = 'trigram remove_diacritics 1')`.execute(db);
  await sql`create virtual table blogs_fts_vocab using fts5vocab(blogs_fts, 'row')`.execute(db);
  await sql`
    create table pdf_texts (
      path text primary key,
      text text not null,
      pages integer not null,
      status text not null check (status in ('ok', 'failed')),
      extracted_at text not null
    )`.execute(db);
  const { rows } = await sql<FtsRow>`select rowid, title, body from blogs_fts_old`.execute(db);
  for (const row of rows) {
    const title = indexText(row.title);
    const body = indexText(row.body);
    await sql`insert into blogs_fts (rowid, title, body, pdf) values (${row.rowid}, ${title}, ${body}, '')`.execute(db);
    const cjkTitle = unspacedRuns(title);
    const cjkBody = unspacedRuns(body);
    if (cjkTitle || cjkBody) {
      await sql`insert into blogs_cjk (rowid, title, body, pdf) values (${row.rowid}, ${cjkTitle}, ${cjkBody}, '')`.execute(db);
    }
  }
  await sql`drop table blogs_fts_old`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists blogs_fts_vocab`.execute(db);
  await sql`drop table if exists blogs_cjk`.execute(db);
  await sql`drop table if exists pdf_texts`.execute(db);
  await sql`alter table blogs_fts rename to blogs_fts_new`.execute(db);
  await sql`create virtual table blogs_fts using fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')`.execute(db);
  await sql`insert into blogs_fts (rowid, title, body) select rowid, title, body from blogs_fts_new`.execute(db);
  await sql`drop table blogs_fts_new`.execute(db);
}
