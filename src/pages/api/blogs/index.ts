import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { parseBlogListQuery } from '../../../server/content/list-queries.ts';
import { searchBlogs } from '../../../server/content/search.ts';
import { searchBlogsForReaders } from '../../../server/content/search-api.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { toBlogDto, withPublishing } from '../../../server/content/blog-dto.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { createBlog } from '../../../server/content/blogs-admin.ts';

export const { GET, POST, ALL } = route({
  /**
   * GET /api/blogs?category=&search=&limit=&offset=: newest first (best match first when searching); X-Total-Count.
   * Readers get published articles only, and their searches are ranked off this thread and capped
   * like the search page (X-Total-Count-Capped: true past 1,000 matches); an admin gets every
   * status, `status=` picks one.
   */
  GET: async (context) => {
    const query = parseBlogListQuery(context.url.searchParams);
    const admin = context.locals.user?.is_admin === 1 ? { status: query.status } : undefined;
    if (query.search !== null && !admin) {
      const app = context.locals.app;
      const found = await searchBlogsForReaders(
        app,
        { ...query, search: query.search },
        readClientIp(context, app.config.trustProxy),
      );
      return json(
        found.blogs.map((blog) => toBlogDto(blog)),
        200,
        {
          'X-Total-Count': String(found.total),
          ...(found.capped ? { 'X-Total-Count-Capped': 'true' } : {}),
        },
      );
    }
    const { blogs, total } = await searchBlogs(context.locals.app.db, { ...query, admin });
    return json(
      blogs.map((blog) => (admin ? withPublishing(toBlogDto(blog), blog) : toBlogDto(blog))),
      200,
      { 'X-Total-Count': String(total) },
    );
  },
  /** POST /api/blogs (admin): creates an article; 201 with the blog as GET /api/blogs/:id shows it, plus live_ms. */
  POST: async (context) => {
    const admin = requireAdmin(context);
    const body = await readJsonObject(context.request, BODY_LIMITS.blog);
    return json(await createBlog(context.locals.app, admin, body), 201);
  },
});
