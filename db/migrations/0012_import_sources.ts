import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Imports from other sites (src/server/import/). `import_sources` remembers what each item of a
 * source (a WordPress post by its guid, a Ghost post by its id, a comment, an uploaded file)
 * became here and a hash of what was imported, so running the same import again changes nothing
 * and a changed item updates the article it made. `redirects` keeps the old site's addresses
 * (`/?p=123`, `/2024/06/slug/`) answering with a 301 to the article they now are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_sources')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer')
    .addColumn('target_url', 'text')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_sources_pk', ['source', 'kind', 'source_id'])
    .execute();
  await db.schema
    .createTable('redirects')
    .addColumn('path', 'text', (c) => c.primaryKey())
    .addColumn('blog_id', 'integer', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('redirects_blog').on('redirects').column('blog_id').execute();
  // An article deleted here leaves no idempotency row pointing at it: importing again brings it back.
  await sql`create trigger import_sources_blog_gone after delete on blogs begin
    delete from import_sources where kind = 'post' and target_id = old.id;
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists import_sources_blog_gone`.execute(db);
  await db.schema.dropTable('redirects').ifExists().execute();
  await db.schema.dropTable('import_sources').ifExists().execute();
}
