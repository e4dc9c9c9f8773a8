import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/api/respond.ts';
import { getTopViewed } from '../../../server/content/reader.ts';

/** GET /api/blogs/top-viewed: up to 17 `{id, title, created_at, clicks}`, most clicks first. */
export const GET = apiRoute(async (context) => json(await getTopViewed(context.locals.app.db)));

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) => (context.request.method === 'HEAD' ? GET(context) : methodNotAllowed()));
