import type { Selectable } from 'kysely';
import type { Db } from '../client.ts';
import type { BlogRevisionsTable } from '../schema.ts';

/** Article revisions: one row per save, with every field, who saved it and when. */

export type Revision = Selectable<BlogRevisionsTable>;

/** A revision in the edit screen's list: no text, which can be half a megabyte per row. */
export type RevisionSummary = Pick<
  Revision,
  'id' | 'blog_id' | 'title' | 'status' | 'publish_at' | 'username' | 'action' | 'created_at'
>;

export type NewRevision = Omit<Revision, 'id'>;

/** The blog's fields a revision copies (the same names in both tables). */
export const REVISION_FIELDS = [
  'title',
  'content',
  'content_source',
  'category_id',
  'image',
  'video_link',
  'is_video',
  'pdf_drive_link',
  'pay_link',
  'form_name',
  'form_link',
  'status',
  'publish_at',
] as const;

export async function insertRevision(db: Db, revision: NewRevision): Promise<number> {
  const { id } = await db.insertInto('blog_revisions').values(revision).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function deleteRevision(db: Db, id: number): Promise<void> {
  await db.deleteFrom('blog_revisions').where('id', '=', id).execute();
}

/** Newest first. */
export function listRevisions(db: Db, blogId: number): Promise<RevisionSummary[]> {
  return db
    .selectFrom('blog_revisions')
    .select(['id', 'blog_id', 'title', 'status', 'publish_at', 'username', 'action', 'created_at'])
    .where('blog_id', '=', blogId)
    .orderBy('id', 'desc')
    .execute();
}

export function findRevision(db: Db, blogId: number, revisionId: number): Promise<Revision | undefined> {
  return db
    .selectFrom('blog_revisions')
    .selectAll()
    .where('blog_id', '=', blogId)
    .where('id', '=', revisionId)
    .executeTakeFirst();
}

/**
 * Keeps the newest `keep` revisions of the blog and deletes the rest; answers the deleted rows'
 * file references, so the files only they used can go too.
 */
export async function pruneRevisions(
  db: Db,
  blogId: number,
  keep: number,
): Promise<Array<Pick<Revision, 'image' | 'pdf_drive_link' | 'content' | 'content_source'>>> {
  const kept = db.selectFrom('blog_revisions').select('id').where('blog_id', '=', blogId).orderBy('id', 'desc').limit(keep);
  return db
    .deleteFrom('blog_revisions')
    .where('blog_id', '=', blogId)
    .where('id', 'not in', kept)
    .returning(['image', 'pdf_drive_link', 'content', 'content_source'])
    .execute();
}

/** Every file reference in a blog's revisions (read before the blog and its revisions are deleted). */
export function listRevisionFiles(db: Db, blogId: number) {
  return db
    .selectFrom('blog_revisions')
    .select(['image', 'pdf_drive_link', 'content', 'content_source'])
    .where('blog_id', '=', blogId)
    .execute();
}
