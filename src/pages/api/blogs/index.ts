import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { parseBlogListQuery } from '../../../server/content/validation-public.ts';
import { searchBlogs } from '../../../server/content/search.ts';
import { toBlogDto } from '../../../server/content/blog-dto.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { BLOG_BODY_MAX_BYTES, createBlog } from '../../../server/content/blogs-admin.ts';

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

/** POST /api/blogs (admin): creates an article; 201 with the blog as GET /api/blogs/:id shows it, plus live_ms. */
export const POST = apiRoute(async (context) => {
  const admin = requireAdmin(context);
  const body = await readJsonObject(context.request, BLOG_BODY_MAX_BYTES);
  return json(await createBlog(context.locals.app, admin, body), 201);
});

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) =>
  context.request.method === 'HEAD' ? GET(context) : methodNotAllowed(['GET', 'HEAD', 'POST']),
);
