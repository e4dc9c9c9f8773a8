import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/http/api.ts';
import { getSlides } from '../../../server/content/reader.ts';

/** GET /api/carousel: every slide as `{id, title, image_url, altText}`. */
export const GET = apiRoute(async (context) => json(await getSlides(context.locals.app.db)));

// Methods without their own export land here: HEAD mirrors GET, anything else is a JSON 405.
export const ALL = apiRoute((context: APIContext) => (context.request.method === 'HEAD' ? GET(context) : methodNotAllowed()));
