import type { APIContext, APIRoute } from 'astro';
import { apiRoute, methodNotAllowed } from './respond.ts';

type Handler = (context: APIContext) => Promise<Response> | Response;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * An endpoint file's exports from its handlers:
 * `export const { GET, PUT, DELETE, ALL } = route({ GET: ..., PUT: ..., DELETE: ... })`.
 * Every handler answers AppErrors as JSON (apiRoute); ALL, which Astro calls for every method
 * the file does not export, answers HEAD like GET and anything else with the JSON 405 and an
 * `Allow` header naming GET, HEAD (when there is a GET) and the others in the order given.
 * `{ head: false }` keeps HEAD out (the admin comment list has always answered it 405).
 */
export function route<H extends Partial<Record<Method, Handler>>>(
  handlers: H,
  options: { head?: boolean } = {},
): { [K in keyof H]: APIRoute } & { ALL: APIRoute } {
  const routes: Partial<Record<Method | 'ALL', APIRoute>> = {};
  for (const [method, handler] of Object.entries(handlers) as Array<[Method, Handler]>) routes[method] = apiRoute(handler);
  const get = options.head === false ? undefined : routes.GET;
  const others = (Object.keys(handlers) as Method[]).filter((method) => method !== 'GET');
  const allowed = get ? ['GET', 'HEAD', ...others] : (Object.keys(handlers) as Method[]);
  routes.ALL = apiRoute((context) => (get && context.request.method === 'HEAD' ? get(context) : methodNotAllowed(allowed)));
  return routes as { [K in keyof H]: APIRoute } & { ALL: APIRoute };
}
