import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { notFound } from '../../../server/errors.ts';
import { requireBlogId } from '../../../server/content/validation-public.ts';
import { getBlogDetail } from '../../../server/content/reader.ts';
import { toBlogDto } from '../../../server/content/blog-dto.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { BLOG_BODY_MAX_BYTES, deleteBlogById, updateBlogById } from '../../../server/content/blogs-admin.ts';

/** GET /api/blogs/:id: the blog with `comments: [{id, username, comment, created_at}]`. */
export const GET = apiRoute(async (context) => {
  const id = requireBlogId(context.params.id);
  const blog = await getBlogDetail(context.locals.app.db, id);
  if (!blog) throw notFound('That blog');
  return json(toBlogDto(blog, blog.comments));
});

/** PUT /api/blogs/:id (admin): replaces every field; 200 with the blog plus live_ms. */
export const PUT = apiRoute(async (context) => {
  requireAdmin(context);
  const id = requireBlogId(context.params.id);
  const body = await readJsonObject(context.request, BLOG_BODY_MAX_BYTES);
  return json(await updateBlogById(context.locals.app, id, body));
});

/** DELETE /api/blogs/:id (admin): the article and its comments; 200 {message, live_ms}. */
export const DELETE = apiRoute(async (context) => {
  requireAdmin(context);
  const id = requireBlogId(context.params.id);
  return json(await deleteBlogById(context.locals.app, id));
});

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) =>
  context.request.method === 'HEAD' ? GET(context) : methodNotAllowed(['GET', 'HEAD', 'PUT', 'DELETE']),
);
