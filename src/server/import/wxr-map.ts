import sanitizeHtml from 'sanitize-html';
import type { CommentStatus } from '../db/schema.ts';
import {
  infoPageSlugOf,
  type ImportArticle,
  type ImportComment,
  type ImportInfoPage,
  type ImportSite,
  type SkippedItem,
} from './import-types.ts';
import { oldPathsOf } from '../../shared/old-paths.ts';
import { wordpressHtml, wordpressTitle } from './wxr-content.ts';
import type { WxrComment, WxrFile, WxrItem } from './wxr-parser.ts';

/**
 * A WordPress export as articles: posts with their content, author, GMT dates, status, first
 * category, featured image and comments. Pages, attachments and menu items are not articles;
 * pages are reported (About and Contact are written by hand here), the others used or left out.
 */

const NO_DATE = /^0000-00-00/;

/** `2013-01-11 20:22:19` (UTC) as ISO 8601; null for WordPress's empty date. */
export function wxrDate(value: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value.trim());
  if (!match || NO_DATE.test(value)) return null;
  const time = Date.parse(`${match[1]}T${match[2]}Z`);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

function commentStatus(approved: string): CommentStatus | null {
  if (approved === '1') return 'approved';
  if (approved === '0') return 'pending';
  if (approved === 'spam') return 'spam';
  return null;
}

/** A comment's text as its reader saw it: tags gone, line breaks kept (comments here are plain text). */
export function commentText(html: string): string {
  const marked = html.replace(/\r\n?/g, '\n').replace(/<br\s*\/?>|<\/p\s*>/gi, '\n');
  const text = sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function mapComments(item: WxrItem, notes: string[]): ImportComment[] {
  const comments: ImportComment[] = [];
  let left = 0;
  for (const c of item.comments as WxrComment[]) {
    const status = commentStatus(c.approved.trim());
    // Pingbacks and trackbacks are links from other sites, not readers' comments; trash is deleted.
    if (!status || (c.type && c.type !== 'comment')) {
      left++;
      continue;
    }
    comments.push({
      sourceId: c.id.trim(),
      author: c.author.trim() || 'Anonymous',
      text: commentText(c.content),
      createdAt: wxrDate(c.dateGmt) ?? wxrDate(c.date) ?? new Date(0).toISOString(),
      status,
    });
  }
  if (left) notes.push(`${left} pingbacks, trackbacks or deleted comments left out`);
  return comments;
}

function mapStatus(
  item: WxrItem,
  date: string,
  now: number,
  notes: string[],
): Pick<ImportArticle, 'status' | 'publishAt'> | null {
  // Readers needed a password on the old site: not made public here without the owner looking.
  if (item.password && ['publish', 'future', 'private'].includes(item.status.trim())) {
    notes.push('password-protected on the old site: imported as a draft');
    return { status: 'draft', publishAt: null };
  }
  switch (item.status.trim()) {
    case 'publish':
      return { status: 'published', publishAt: null };
    case 'future':
      if (Date.parse(date) > now) return { status: 'scheduled', publishAt: date };
      notes.push('scheduled for a date now past: published');
      return { status: 'published', publishAt: null };
    case 'private':
      notes.push('private on the old site: imported as a draft');
      return { status: 'draft', publishAt: null };
    case 'draft':
    case 'pending':
      return { status: 'draft', publishAt: null };
    default:
      return null;
  }
}

export function mapWxr(file: WxrFile, now = Date.now()): ImportSite {
  const origin = (file.baseBlogUrl || file.link).replace(/\/+$/, '');
  const attachments = new Map<string, string>();
  for (const item of file.items)
    if (item.postType === 'attachment' && item.attachmentUrl) attachments.set(item.postId.trim(), item.attachmentUrl.trim());
  const articles: ImportArticle[] = [];
  const skipped: SkippedItem[] = [];
  const infoPages: ImportInfoPage[] = [];
  for (const item of file.items) {
    // Post ids are unique within a site; guids are not always (a copied post keeps its original's).
    const sourceId = item.postId.trim() ? `post-${item.postId.trim()}` : item.guid.trim();
    const title = wordpressTitle(item.title);
    if (item.postType === 'page') {
      const slug = infoPageSlugOf(title, item.postName);
      if (slug && item.status.trim() === 'publish' && !infoPages.some((p) => p.slug === slug))
        infoPages.push({ slug, sourceId, title, html: wordpressHtml(item.content) });
      else skipped.push({ sourceId, title, reason: 'a page, not an article (only About and Contact are taken, as those pages)' });
      continue;
    }
    if (item.postType !== 'post') continue;
    const notes: string[] = [];
    const createdAt = wxrDate(item.postDateGmt) ?? wxrDate(item.postDate);
    if (!createdAt) {
      skipped.push({ sourceId, title, reason: `no date (${item.postDateGmt || 'empty'})` });
      continue;
    }
    if (!wxrDate(item.postDateGmt)) notes.push('no GMT date: its local date was taken as UTC');
    const status = mapStatus(item, createdAt, now, notes);
    if (!status) {
      skipped.push({ sourceId, title, reason: `status "${item.status.trim()}" is not imported` });
      continue;
    }
    const categories = item.categories.filter((c) => c.domain === 'category').map((c) => c.name);
    const tags = item.categories.filter((c) => c.domain === 'post_tag').map((c) => c.name);
    const thumbnail = item.meta.get('_thumbnail_id')?.trim();
    const imageUrl = thumbnail ? (attachments.get(thumbnail) ?? null) : null;
    if (thumbnail && !imageUrl) notes.push(`featured image ${thumbnail} is not in the export`);
    // The product has no separate excerpt: a card shows the article's opening instead.
    if (item.excerpt.trim()) notes.push('its hand-written excerpt was not kept (cards here show the opening of the text)');
    articles.push({
      sourceId,
      title: title || '(no title)',
      author: file.authors.get(item.creator.trim()) ?? item.creator.trim(),
      html: wordpressHtml(item.content),
      createdAt,
      ...status,
      category: categories[0] ?? null,
      otherTerms: [...categories.slice(1), ...tags.map((t) => `#${t}`)],
      imageUrl,
      comments: mapComments(item, notes),
      oldPaths: oldPathsOf(origin, { link: item.link, postId: item.postId.trim(), slug: item.postName.trim() }),
      notes,
    });
  }
  return { source: `wxr:${origin}`, format: 'wordpress', origin, articles, skipped, infoPages };
}
