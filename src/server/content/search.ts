import type { Db } from '../db/client.ts';
import type { Blog } from '../db/repositories/blogs.ts';
import type { BlogStatus } from '../db/schema.ts';
import { countBlogs, listBlogsFull, type BlogFilter } from '../db/repositories/blog-lists.ts';

const MAX_TERMS = 12;
const MAX_TERM_LENGTH = 64;
const MAX_SEARCH_LENGTH = 200;

/**
 * Turns whatever a reader typed into a safe FTS5 MATCH expression: every word becomes a quoted
 * prefix term, all must match. Quotes, operators (AND, OR, NOT, NEAR), column filters (`:`),
 * `^`, `*`, parentheses and lone symbols are never passed through, so no input can raise an FTS5
 * syntax error. A word is a run of letters, digits and combining marks, which is what the index's
 * unicode61 tokenizer treats as token characters, so words split the same way on both sides.
 * Returns null when the text has no searchable word.
 */
export function buildFtsQuery(text: string): string | null {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu);
  if (!words || words.length === 0) return null;
  const unique = [...new Set(words.map((w) => [...w].slice(0, MAX_TERM_LENGTH).join('')))].slice(0, MAX_TERMS);
  return unique.map((w) => `"${w}"*`).join(' ');
}

/** docs/product.md#validation-rules: blank or whitespace-only search text is ignored. */
export function normalizeSearchText(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.replace(/\s+/g, ' ').trim().slice(0, MAX_SEARCH_LENGTH);
  return text === '' ? null : text;
}

export interface BlogSearch {
  categoryId: number | null;
  /** Already normalized (normalizeSearchText); null lists everything. */
  search: string | null;
  limit: number;
  offset: number;
  /** An admin's list: every status, or only `status` when given. Left out: what readers see. */
  admin?: { status?: BlogStatus | undefined } | undefined;
}

export interface BlogSearchResult {
  blogs: Blog[];
  /** Every match, not just this page (the admin table pages with it). */
  total: number;
}

/**
 * Full blogs for the API list: newest first, or best match first when searching. Category and
 * search combine. A search with no searchable word (only symbols) matches nothing.
 */
export async function searchBlogs(db: Db, query: BlogSearch): Promise<BlogSearchResult> {
  const ftsQuery = query.search !== null ? buildFtsQuery(query.search) : null;
  if (query.search !== null && ftsQuery === null) return { blogs: [], total: 0 };
  const filter: BlogFilter = {
    categoryId: query.categoryId ?? undefined,
    ftsQuery: ftsQuery ?? undefined,
    admin: query.admin && { ...query.admin, search: query.search ?? undefined },
  };
  const [blogs, total] = await Promise.all([
    listBlogsFull(db, filter, { limit: query.limit, offset: query.offset }),
    countBlogs(db, filter),
  ]);
  return { blogs, total };
}
