import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/http/api.ts';
import { getSiteChrome } from '../../../server/content/reader.ts';

/** GET /api/categories: `[{id, name, sequence}]` by sequence, then id. */
export const GET = apiRoute(async (context) => {
  const { categories } = await getSiteChrome(context.locals.app.db);
  return json(categories);
});

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) => (context.request.method === 'HEAD' ? GET(context) : methodNotAllowed()));
