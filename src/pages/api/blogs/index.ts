import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/http/api.ts';
import { parseBlogListQuery } from '../../../server/content/validation-public.ts';
import { searchBlogs } from '../../../server/content/search.ts';
import { toBlogDto } from '../../../server/content/blog-dto.ts';

/**
 * GET /api/blogs?category=&search=&limit=&offset=: full blogs, newest first (best match first
 * when searching). X-Total-Count carries the number of matches beyond this page.
 */
export const GET = apiRoute(async (context) => {
  const query = parseBlogListQuery(context.url.searchParams);
  const { blogs, total } = await searchBlogs(context.locals.app.db, query);
  return json(
    blogs.map((blog) => toBlogDto(blog)),
    200,
    { 'X-Total-Count': String(total) },
  );
});

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) => (context.request.method === 'HEAD' ? GET(context) : methodNotAllowed()));
