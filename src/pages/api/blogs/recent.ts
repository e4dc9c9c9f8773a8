import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/api/respond.ts';
import { getRecent } from '../../../server/content/reader.ts';

/** GET /api/blogs/recent: newest first `{id, title, image, category_name}`, for the ticker. */
export const GET = apiRoute(async (context) => json(await getRecent(context.locals.app.db)));

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) => (context.request.method === 'HEAD' ? GET(context) : methodNotAllowed()));
