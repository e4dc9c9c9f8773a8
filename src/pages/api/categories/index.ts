import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { getSiteChrome } from '../../../server/content/reader.ts';
import { requireAdmin } from '../../../server/auth/guard.ts';
import { createCategory } from '../../../server/content/categories-admin.ts';

/** GET /api/categories: `[{id, name, sequence}]` by sequence, then id. */
export const GET = apiRoute(async (context) => {
  const { categories } = await getSiteChrome(context.locals.app.db);
  return json(categories);
});

/** POST /api/categories (admin) {name, sequence}: 201 {id, name, sequence, live_ms}; 409 when the name exists. */
export const POST = apiRoute(async (context) => {
  requireAdmin(context);
  const body = await readJsonObject(context.request, 16 * 1024);
  return json(await createCategory(context.locals.app, body), 201);
});

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) =>
  context.request.method === 'HEAD' ? GET(context) : methodNotAllowed(['GET', 'HEAD', 'POST']),
);
