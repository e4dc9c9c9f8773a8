import { apiRoute, json, methodNotAllowed } from '../../../../server/api/respond.ts';
import { requireAdmin } from '../../../../server/auth/guard.ts';
import { invalidInput } from '../../../../server/errors.ts';
import {
  COMMENT_LIST_DEFAULT_LIMIT,
  COMMENT_LIST_MAX_LIMIT,
  listCommentsForAdmin,
} from '../../../../server/content/comments-admin.ts';

/**
 * GET /api/blogs/comment?limit=&offset= (admin): comments with `blog_title`, newest first.
 * X-Total-Count carries the number of all comments. (A static segment, so it wins over /api/blogs/[id].)
 */
export const GET = apiRoute(async (context) => {
  requireAdmin(context);
  const limit = readCount(context.url.searchParams.get('limit'), COMMENT_LIST_DEFAULT_LIMIT, 'limit');
  const offset = readCount(context.url.searchParams.get('offset'), 0, 'offset');
  const { items, total } = await listCommentsForAdmin(context.locals.app.db, {
    limit: Math.min(Math.max(limit, 1), COMMENT_LIST_MAX_LIMIT),
    offset,
  });
  return json(items, 200, { 'X-Total-Count': String(total) });
});

function readCount(raw: string | null, fallback: number, name: string): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw))
    throw invalidInput(`${name} must be a whole number.`, { [name]: `${name} must be a whole number.` });
  return Number(raw);
}

export const ALL = apiRoute(() => methodNotAllowed(['GET']));
