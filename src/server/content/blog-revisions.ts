import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import { findBlogById, type Blog } from '../db/repositories/blogs.ts';
import {
  deleteRevision,
  findRevision,
  insertRevision,
  listRevisions,
  pruneRevisions,
  type Revision,
  type RevisionSummary,
} from '../db/repositories/revisions.ts';
import { notFound } from '../errors.ts';

/**
 * Every save of an article keeps a revision with all its fields, who saved it and when. An
 * autosave replaces the autosave just before it (a run of autosaves is one revision), and each
 * save prunes the article's revisions to REVISIONS_KEEP.
 */

export type RevisionAction = 'create' | 'update' | 'autosave' | 'restore' | 'publish' | 'import';

/** Who saved: an admin, an import from the command line (no user, its own name), or the scheduler (null). */
export type Saver = (Pick<PublicUser, 'username'> & { id: number | null }) | null;

export const SCHEDULER_NAME = 'the scheduler';

/** Records the blog as it is now; answers the file references of revisions pruned away. */
export async function recordRevision(db: Db, blog: Blog, saver: Saver, action: RevisionAction, keep: number) {
  const revision = {
    blog_id: blog.id,
    title: blog.title,
    content: blog.content,
    content_source: blog.content_source,
    category_id: blog.category_id,
    image: blog.image,
    video_link: blog.video_link,
    is_video: blog.is_video,
    pdf_drive_link: blog.pdf_drive_link,
    pay_link: blog.pay_link,
    form_name: blog.form_name,
    form_link: blog.form_link,
    status: blog.status,
    publish_at: blog.publish_at,
    user_id: saver?.id ?? null,
    username: saver?.username ?? SCHEDULER_NAME,
    action,
    created_at: new Date().toISOString(),
  };
  if (action === 'autosave') {
    const [newest] = await listRevisions(db, blog.id);
    if (newest?.action === 'autosave' && newest.username === revision.username) {
      await deleteRevision(db, newest.id);
    }
  }
  await insertRevision(db, revision);
  return pruneRevisions(db, blog.id, keep);
}

/** The edit screen's list, newest first; 404 for an article that does not exist. */
export async function listBlogRevisions(app: AppContext, blogId: number): Promise<RevisionSummary[]> {
  if (!(await findBlogById(app.db, blogId))) throw notFound('That blog');
  return listRevisions(app.db, blogId);
}

export async function getRevision(app: AppContext, blogId: number, revisionId: number): Promise<Revision> {
  const revision = await findRevision(app.db, blogId, revisionId);
  if (!revision) throw notFound('That revision');
  return revision;
}

/**
 * The write body that brings a revision's article fields back. Publishing state is not part of
 * it: restoring last week's text of a live article must not take it offline.
 */
export function restoreBody(revision: Revision, current: Pick<Blog, 'status' | 'publish_at'>): Record<string, unknown> {
  return {
    title: revision.title,
    content: revision.content,
    content_source: revision.content_source,
    category_id: revision.category_id,
    image: revision.image,
    pdf_link: revision.pdf_drive_link,
    isVideo: revision.is_video === 1 ? '1' : '0',
    video_link: revision.video_link,
    payment_link: revision.pay_link,
    form_name: revision.form_name,
    form_link: revision.form_link,
    status: current.status,
    publish_at: current.publish_at,
  };
}
