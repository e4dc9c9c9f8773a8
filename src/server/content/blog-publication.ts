import type { Blog } from '../db/repositories/blogs.ts';
import { blogIsPublic } from '../db/repositories/visibility.ts';
import { tag, uniqueTags, type PageTag } from '../page-store/site-tags.ts';

/**
 * Which stored pages an article write reaches, given what readers could see before and after.
 * A draft's edits reach none; going public or going back to draft changes list membership (like a
 * create or a delete); an edit of what a public article shows bumps its own tag, which the list
 * pages showing it carry. Lists are ordered by date, which an edit of a public article keeps.
 * Its neighbours' Older and Newer links name it by its `link:ID`: only its title and its place
 * (public or not, category, date) bump that, never an edit of its text.
 */
export function changedTags(before: Blog | null, after: Blog | null, now = new Date().toISOString()): PageTag[] {
  const wasPublic = before !== null && blogIsPublic(before, now);
  const isPublic = after !== null && blogIsPublic(after, now);
  if (!wasPublic && !isPublic) return [];
  const id = (before ?? after)!.id;
  const tags: PageTag[] = [tag.blog(id), tag.updates];
  const membership = wasPublic !== isPublic;
  if (membership) tags.push(tag.list, tag.topViewed);
  if (membership || before?.category_id !== after?.category_id) {
    if (wasPublic && before.category_id !== null) tags.push(tag.category(before.category_id));
    if (isPublic && after.category_id !== null) tags.push(tag.category(after.category_id));
  }
  // The Downloads pages carry the `blog:ID` of each row they show: an edit of its title stales the
  // page showing it. Their membership tag moves every page: a PDF listed or no longer, or a new date.
  const wasListed = wasPublic && hasPdf(before);
  const isListed = isPublic && hasPdf(after);
  if (wasListed !== isListed || (isListed && before?.created_at !== after?.created_at)) tags.push(tag.downloads);
  // The home pages' ticker and top-viewed list show the same title and date.
  if (membership || linkChanged(before!, after!)) tags.push(tag.link(id), tag.inBlock(id));
  return uniqueTags(tags);
}

/**
 * The content an article write took down: an article readers could see and no longer can
 * (back to draft, scheduled into the future, deleted). Every page showing it carries its
 * `blog:ID` (its own page, the lists, the feed), and /download shows its PDF. No page showing it
 * may be answered stale after the save answers (an edit's may, while they are refreshed).
 */
export function takenDownTags(before: Blog | null, after: Blog | null, now = new Date().toISOString()): PageTag[] {
  if (before === null || !blogIsPublic(before, now) || (after !== null && blogIsPublic(after, now))) return [];
  // Its neighbours' pages link to it by its `link:ID`: no reader may follow a link to a page gone;
  // the home pages' ticker and top-viewed list name it by its `in-block:ID`.
  const tags = [tag.blog(before.id), tag.link(before.id), tag.inBlock(before.id)];
  return hasPdf(before) ? [...tags, tag.downloads] : tags;
}

const hasPdf = (blog: Pick<Blog, 'pdf_drive_link'>) => Boolean(blog.pdf_drive_link);

/** Both public: whether what an Older or Newer link shows of it, or where it sits, changed. */
const linkChanged = (before: Blog, after: Blog) =>
  before.title !== after.title || before.category_id !== after.category_id || before.created_at !== after.created_at;

/**
 * The date an article takes when saved. A scheduled one is dated when it goes live; a draft or
 * a scheduled article that is published now is dated now, so it joins the lists on top. A public
 * article keeps its date.
 */
export function publicationDate(
  before: Blog,
  after: { status: Blog['status']; publish_at: string | null },
  now: string,
): string | undefined {
  if (after.status === 'scheduled') return after.publish_at ?? undefined;
  if (after.status === 'published' && !blogIsPublic(before, now)) return now;
  return undefined;
}
