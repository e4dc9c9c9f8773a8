import { invalidInput } from '../errors.ts';
import { parseId } from '../../shared/ids.ts';
import type { BlogStatus } from '../db/schema.ts';
import { normalizeSearchText } from './search.ts';
import { COMMENT_LIST_DEFAULT_LIMIT, COMMENT_LIST_MAX_LIMIT } from './comments-admin.ts';

/** The query strings of the list endpoints: failures are 400s that name the bad fields. */

export const BLOG_LIST_DEFAULT_LIMIT = 50;
export const BLOG_LIST_MAX_LIMIT = 200;
const MAX_OFFSET = 1_000_000_000;

export interface BlogListQuery {
  categoryId: number | null;
  search: string | null;
  limit: number;
  offset: number;
  /** `status=draft|scheduled|published`: the admin list's filter (readers only ever get published). */
  status: BlogStatus | undefined;
}

const STATUSES: readonly BlogStatus[] = ['published', 'draft', 'scheduled'];

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
  const statusRaw = params.get('status') ?? '';
  const status = STATUSES.find((s) => s === statusRaw);
  if (statusRaw !== '' && !status) fields.status = 'status must be published, draft or scheduled.';

  if (Object.keys(fields).length > 0) throw invalidInput('The list query is not valid.', fields);
  return { categoryId, search: normalizeSearchText(params.get('search')), limit: limit!, offset: offset!, status };
}

/** GET /api/blogs/comment?limit=&offset=: a limit out of range is brought into it; a non-number is a 400. */
export function parseCommentListQuery(params: URLSearchParams): { limit: number; offset: number } {
  const limit = readCount(params.get('limit'), COMMENT_LIST_DEFAULT_LIMIT, 'limit');
  const offset = readCount(params.get('offset'), 0, 'offset');
  return { limit: Math.min(Math.max(limit, 1), COMMENT_LIST_MAX_LIMIT), offset };
}

function readCount(raw: string | null, fallback: number, name: string): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw))
    throw invalidInput(`${name} must be a whole number.`, { [name]: `${name} must be a whole number.` });
  return Number(raw);
}
