import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The Downloads pages list the public articles that have a PDF, newest first. Without an index
 * of those articles alone SQLite walked every article's entry in the list index and read its row
 * for the PDF column: 74-86 ms at 100,000 articles (10,000 with a PDF), after every save that
 * stales the list. This partial index holds only the articles with a PDF: 3 ms there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('blogs_pdf_created_visible')
    .on('blogs')
    .columns(['created_at', 'id', 'status', 'publish_at'])
    .where(sql.ref('pdf_drive_link'), 'is not', null)
    .where(sql.ref('pdf_drive_link'), '!=', '')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('blogs_pdf_created_visible').ifExists().execute();
}
