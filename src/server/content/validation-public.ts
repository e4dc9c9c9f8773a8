import { AppError, invalidInput } from '../errors.ts';
import { parseId } from '../../shared/ids.ts';
import { normalizeSearchText } from './search.ts';

/**
 * What a visitor may put in an API path or query: the article list query and a blog id. No
 * database access here; failures are AppErrors (400) that name the bad fields. The comment form's
 * rules live in src/shared/validation/comment.ts, shared with the comment island.
 */

export const BLOG_LIST_DEFAULT_LIMIT = 50;
export const BLOG_LIST_MAX_LIMIT = 200;
const MAX_OFFSET = 1_000_000_000;

export interface BlogListQuery {
  categoryId: number | null;
  search: string | null;
  limit: number;
  offset: number;
}

function readWholeNumber(raw: string, min: number, max: number): number | null {
  if (!/^\d{1,10}$/.test(raw)) return null;
  const value = Number(raw);
  return value >= min && value <= max ? value : null;
}

/** GET /api/blogs?category=&search=&limit=&offset=: 400 with the bad fields named. */
export function parseBlogListQuery(params: URLSearchParams): BlogListQuery {
  const fields: Record<string, string> = {};
  const category = params.get('category') ?? '';
  const limitRaw = params.get('limit') ?? '';
  const offsetRaw = params.get('offset') ?? '';

  const categoryId = category === '' ? null : parseId(category);
  if (category !== '' && categoryId === null) fields.category = 'category must be a positive whole number.';
  const limit = limitRaw === '' ? BLOG_LIST_DEFAULT_LIMIT : readWholeNumber(limitRaw, 1, BLOG_LIST_MAX_LIMIT);
  if (limit === null) fields.limit = `limit must be a whole number from 1 to ${BLOG_LIST_MAX_LIMIT}.`;
  const offset = offsetRaw === '' ? 0 : readWholeNumber(offsetRaw, 0, MAX_OFFSET);
  if (offset === null) fields.offset = 'offset must be a whole number, 0 or more.';

  if (Object.keys(fields).length > 0) throw invalidInput('The list query is not valid.', fields);
  return { categoryId, search: normalizeSearchText(params.get('search')), limit: limit!, offset: offset! };
}

/** A blog id from the path: anything but a positive whole number is a 400, never a lookup. */
export function requireBlogId(raw: string | undefined): number {
  const id = parseId(raw);
  if (id === null) throw new AppError('invalid_input', 'The blog id must be a positive whole number.');
  return id;
}
