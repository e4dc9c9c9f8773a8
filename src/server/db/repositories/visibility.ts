import { sql, type RawBuilder } from 'kysely';

/**
 * The one rule for what readers may see: a published article, or a scheduled one whose
 * publish_at has come (before the scheduler has flipped it to published). Drafts and
 * not-yet-due articles are absent from every public query that uses this. `table` is the name
 * or alias the blogs table has in the query.
 * The unary `+` keeps SQLite off the status index, which it would otherwise pick for the OR and
 * then read and sort every visible article for each page of a list; the list indexes (migration
 * 0008) carry status and publish_at, so the check is answered from the index being walked.
 */
export function isPublicBlog(table = 'blogs', now: string = new Date().toISOString()): RawBuilder<boolean> {
  const status = sql.ref(`${table}.status`);
  const publishAt = sql.ref(`${table}.publish_at`);
  return sql<boolean>`(+${status} = 'published' or (+${status} = 'scheduled' and ${publishAt} <= ${now}))`;
}

/** The same rule for a row the caller already holds. */
export function blogIsPublic(blog: { status: string; publish_at: string | null }, now = new Date().toISOString()): boolean {
  return blog.status === 'published' || (blog.status === 'scheduled' && blog.publish_at !== null && blog.publish_at <= now);
}

/** Which articles a query is for: readers (the default) or an admin, who sees every status. */
export type Audience = 'public' | 'admin';
