import type { CommentStatus } from '../db/schema.ts';
import type { PublishStatus } from '../../shared/validation/publishing.ts';

/**
 * An imported site in one shape, whatever it came from (WordPress, Ghost): what `import-run.ts`
 * writes. Each format's mapper fills it; nothing here has been validated yet.
 */

export interface ImportComment {
  /** The comment's id in its site: with the source, the key that keeps a second run from adding it again. */
  sourceId: string;
  author: string;
  /** Plain text: comments here are text, never HTML. */
  text: string;
  createdAt: string;
  status: CommentStatus;
}

export interface ImportArticle {
  /** The item's id in its site (a WordPress guid, a Ghost id). */
  sourceId: string;
  title: string;
  author: string;
  /** HTML as the old site stored it; sanitized like the editor's on write. */
  html: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  status: PublishStatus;
  publishAt: string | null;
  /** The article's category; null: the import's default category. */
  category: string | null;
  /** Its other categories and tags: the product shows one category, so these are reported. */
  otherTerms: string[];
  /** The featured image as the old site addressed it (an http(s) URL). */
  imageUrl: string | null;
  comments: ImportComment[];
  /** The old site's addresses of the article (path and query), for the 301 redirects. */
  oldPaths: string[];
  /** Anything the mapping changed or left out, for the report. */
  notes: string[];
}

/** An item the mapper did not turn into an article, with why. */
export interface SkippedItem {
  sourceId: string;
  title: string;
  reason: string;
}

/** A page of the old site that is this site's About or Contact page (by its title or address). */
export interface ImportInfoPage {
  slug: 'about' | 'contact';
  sourceId: string;
  title: string;
  html: string;
}

/** The About or Contact page an old page is, by its title or slug; null for any other page. */
export function infoPageSlugOf(title: string, slug: string): 'about' | 'contact' | null {
  const words = [title, slug].map((value) =>
    value
      .trim()
      .toLowerCase()
      .replace(/[-_\s]+/g, ' '),
  );
  if (words.some((w) => /^(about|about (us|me|the site|this site))$/.test(w))) return 'about';
  if (words.some((w) => /^(contact|contact (us|me))$/.test(w))) return 'contact';
  return null;
}

export interface ImportSite {
  /** Names the site in the idempotency keys, e.g. `wxr:https://example.org`. */
  source: string;
  format: 'wordpress' | 'ghost' | 'markdown';
  /** The old site's address (no trailing slash), for recognising its links; '' when unknown. */
  origin: string;
  articles: ImportArticle[];
  skipped: SkippedItem[];
  /** Pages offered as the About and Contact pages (the first of each). */
  infoPages?: ImportInfoPage[];
}

/** The category an article without one goes to (WordPress's own name for it). */
export const DEFAULT_IMPORT_CATEGORY = 'Uncategorized';
