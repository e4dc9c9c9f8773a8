import { sql } from 'kysely';
import type { Db } from '../client.ts';

/**
 * True where one of an article's columns that can name an upload (the featured image, the PDF,
 * the HTML and the editor source) contains `needle`. Articles and their revisions share these
 * column names. instr() is a plain substring search: no pattern characters to escape, and it
 * stops at the first match per row.
 */
function articleColumnsMention(needle: string) {
  return sql<boolean>`(instr(coalesce(image, ''), ${needle}) > 0
    or instr(coalesce(pdf_drive_link, ''), ${needle}) > 0
    or ${textColumnsMention(needle)})`;
}

/**
 * True where a written text (the HTML `content` and the editor's `content_source`) contains
 * `needle`: articles, their revisions, About/Contact and their revisions all name these columns so.
 */
function textColumnsMention(needle: string) {
  return sql<boolean>`(instr(content, ${needle}) > 0 or instr(coalesce(content_source, ''), ${needle}) > 0)`;
}

const found = (row: unknown) => row !== undefined;

/**
 * Every table that may mention an upload, in one list, each with the question whether one of its
 * rows mentions `needle`, so that a new place for uploads is added once. A kept revision counts:
 * a restore may bring its files back, so they stay until pruning drops it.
 */
export const UPLOAD_MENTIONS = {
  /** Featured image, PDF, or anywhere in the content. */
  blogs: (db: Db, needle: string) =>
    db.selectFrom('blogs').select('id').where(articleColumnsMention(needle)).limit(1).executeTakeFirst().then(found),
  blogRevisions: (db: Db, needle: string) =>
    db.selectFrom('blog_revisions').select('id').where(articleColumnsMention(needle)).limit(1).executeTakeFirst().then(found),
  carouselSlides: (db: Db, needle: string) =>
    db
      .selectFrom('carousel_slides')
      .select('id')
      .where(sql<boolean>`instr(image_url, ${needle}) > 0`)
      .limit(1)
      .executeTakeFirst()
      .then(found),
  /** The logo, the icon, the share image. */
  siteSettings: (db: Db, needle: string) =>
    db
      .selectFrom('site_settings')
      .select('key')
      .where(sql<boolean>`instr(value, ${needle}) > 0`)
      .limit(1)
      .executeTakeFirst()
      .then(found),
  infoPages: (db: Db, needle: string) =>
    db.selectFrom('info_pages').select('slug').where(textColumnsMention(needle)).limit(1).executeTakeFirst().then(found),
  infoPageRevisions: (db: Db, needle: string) =>
    db.selectFrom('info_page_revisions').select('id').where(textColumnsMention(needle)).limit(1).executeTakeFirst().then(found),
} satisfies Record<string, (db: Db, needle: string) => Promise<boolean>>;

export type UploadPlace = keyof typeof UPLOAD_MENTIONS;

/** Whether any of `places` mentions `needle`, asked one place after another, stopping at the first. */
export async function isMentionedIn(db: Db, needle: string, places: readonly UploadPlace[]): Promise<boolean> {
  for (const place of places) if (await UPLOAD_MENTIONS[place](db, needle)) return true;
  return false;
}
