import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { requireId } from '../../../server/api/ids.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { notFound } from '../../../server/errors.ts';
import { getBlogDetail } from '../../../server/content/reader.ts';
import { toBlogDto, withPublishing } from '../../../server/content/blog-dto.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { deleteBlogById, updateBlogById } from '../../../server/content/blogs-admin.ts';

export const { GET, PUT, DELETE, ALL } = route({
  /** GET /api/blogs/:id: the blog with `comments: [{id, username, comment, created_at}]`; a draft is a 404 except for admins, who also get `status` and `publish_at`. */
  GET: async (context) => {
    const audience = context.locals.user?.is_admin === 1 ? 'admin' : 'public';
    const blog = await getBlogDetail(context.locals.app.db, requireId(context.params.id, 'blog'), audience);
    if (!blog) throw notFound('That blog');
    const dto = toBlogDto(blog, blog.comments);
    return json(audience === 'admin' ? withPublishing(dto, blog) : dto);
  },
  /**
   * PUT /api/blogs/:id (admin): replaces every field; 200 with the blog plus live_ms.
   * `?autosave=1` marks the form's idle save of a draft (a run of them keeps one revision).
   */
  PUT: async (context) => {
    const admin = requireAdmin(context);
    const id = requireId(context.params.id, 'blog');
    const body = await readJsonObject(context.request, BODY_LIMITS.blog);
    const action = context.url.searchParams.get('autosave') === '1' ? 'autosave' : 'update';
    return json(await updateBlogById(context.locals.app, admin, id, body, action));
  },
  /** DELETE /api/blogs/:id (admin): the article and its comments; 200 {message, live_ms}. */
  DELETE: async (context) => {
    requireAdmin(context);
    return json(await deleteBlogById(context.locals.app, requireId(context.params.id, 'blog')));
  },
});
