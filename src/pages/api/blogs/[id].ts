import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/http/api.ts';
import { notFound } from '../../../server/errors.ts';
import { requireBlogId } from '../../../server/content/validation-public.ts';
import { getBlogDetail } from '../../../server/content/reader.ts';
import { toBlogDto } from '../../../server/content/blog-dto.ts';

/** GET /api/blogs/:id: the blog with `comments: [{id, username, comment, created_at}]`. */
export const GET = apiRoute(async (context) => {
  const id = requireBlogId(context.params.id);
  const blog = await getBlogDetail(context.locals.app.db, id);
  if (!blog) throw notFound('That blog');
  return json(toBlogDto(blog, blog.comments));
});

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) => (context.request.method === 'HEAD' ? GET(context) : methodNotAllowed()));
