import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The list indexes carry each article's visibility (status, publish_at), so a page of a list
 * walks one index in order and checks visibility from the index entry itself. Without them, the
 * readers' condition (published, or scheduled and due) made SQLite read every visible row through
 * the status index and sort them all for each page: 6 ms a page at 2,000 articles, growing with
 * the site, against 0.25 ms now for the deepest page.
 * Also an index of attached PDF links: putting a PDF's text into the search rows of the articles
 * it is attached to looked for them through every article (about 20 ms a PDF at 10,000 articles,
 * a thousand times over on the serving thread when old PDFs are read at start).
 */
const LIST_INDEXES = [
  { name: 'blogs_created', old: ['created_at', 'id'] },
  { name: 'blogs_category_created', old: ['category_id', 'created_at', 'id'] },
  { name: 'blogs_clicks', old: ['clicks', 'id'] },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const index of LIST_INDEXES) {
    await db.schema.dropIndex(index.name).ifExists().execute();
    await db.schema
      .createIndex(`${index.name}_visible`)
      .on('blogs')
      .columns([...index.old, 'status', 'publish_at'])
      .execute();
  }
  await db.schema.createIndex('blogs_pdf_link').on('blogs').column('pdf_drive_link').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('blogs_pdf_link').ifExists().execute();
  for (const index of LIST_INDEXES) {
    await db.schema.dropIndex(`${index.name}_visible`).ifExists().execute();
    await db.schema
      .createIndex(index.name)
      .on('blogs')
      .columns([...index.old])
      .execute();
  }
}
