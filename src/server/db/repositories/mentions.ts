import { sql } from 'kysely';

/**
 * True where one of an article's columns that can name an upload (the featured image, the PDF,
 * the HTML and the editor source) contains `needle`. Articles and their revisions share these
 * column names. instr() is a plain substring search: no pattern characters to escape, and it
 * stops at the first match per row.
 */
export function articleColumnsMention(needle: string) {
  return sql<boolean>`(instr(coalesce(image, ''), ${needle}) > 0
    or instr(coalesce(pdf_drive_link, ''), ${needle}) > 0
    or ${textColumnsMention(needle)})`;
}

/**
 * True where a written text (the HTML `content` and the editor's `content_source`) contains
 * `needle`: articles, their revisions, About/Contact and their revisions all name these columns so.
 */
export function textColumnsMention(needle: string) {
  return sql<boolean>`(instr(content, ${needle}) > 0 or instr(coalesce(content_source, ''), ${needle}) > 0)`;
}
