import { sql } from 'kysely';
import type { Db } from '../client.ts';

/**
 * The site's content as whole table rows, for the export archive (`src/server/export/`): read
 * every row of the tables that make the site, and write them back, ids included, into an empty
 * site. Accounts, sessions, mail and readers' libraries are not content and never leave the site.
 */

/** The tables an export carries, parents before the rows that point at them. */
export const SITE_TABLES = [
  'categories',
  'uploads',
  'pdf_texts',
  'blogs',
  'blog_revisions',
  'blog_daily_views',
  'comments',
  'comment_blocklist',
  'comment_settings',
  'carousel_slides',
  'site_settings',
  'info_pages',
  'info_page_revisions',
  'redirects',
  'import_sources',
] as const;

export type SiteTable = (typeof SITE_TABLES)[number];

/** A table row as SQLite gives it: text, numbers and nulls only (no table here holds a blob). */
export type SiteRow = Record<string, string | number | null>;

/** Columns naming a reader's or admin's account, which the archive does not carry: null on the way in. */
export const ACCOUNT_COLUMNS: Partial<Record<SiteTable, string[]>> = {
  comments: ['user_id'],
  blog_revisions: ['user_id'],
  info_page_revisions: ['user_id'],
};

/** Tables whose rows a new site may already have (its defaults), replaced by the archive's. */
export const REPLACED_TABLES: readonly SiteTable[] = ['comment_blocklist', 'comment_settings', 'site_settings'];

/** Every row of a table, in the order it was written. */
export async function readTableRows(db: Db, table: SiteTable): Promise<SiteRow[]> {
  const result = await sql<SiteRow>`select * from ${sql.table(table)} order by rowid`.execute(db);
  return result.rows;
}

/** The columns a table has in this database (the archive may come from an older or newer site). */
export async function readTableColumns(db: Db, table: SiteTable): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return result.rows.map((row) => row.name);
}

export async function countTableRows(db: Db, table: SiteTable): Promise<number> {
  const result = await sql<{ count: number }>`select count(*) as count from ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.count ?? 0);
}

export async function clearTable(db: Db, table: SiteTable): Promise<void> {
  await sql`delete from ${sql.table(table)}`.execute(db);
}

/** Inserts rows as they are, ids included; the columns were checked against `readTableColumns`. */
export async function insertTableRows(db: Db, table: SiteTable, rows: readonly SiteRow[]): Promise<void> {
  for (const row of rows) {
    const columns = Object.keys(row);
    if (columns.length === 0) continue;
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.id(c)))}) values (${sql.join(
      columns.map((c) => row[c]),
    )})`.execute(db);
  }
}

/** The migrations applied to the database, for the archive's record. */
export async function readAppliedMigrations(db: Db): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return result.rows.map((row) => row.name);
}
