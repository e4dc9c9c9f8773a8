import type { APIContext } from 'astro';
import { apiRoute, json, methodNotAllowed } from '../../../server/api/respond.ts';

/** GET /api/users/me -> the signed-in user or {user:null}; never cached (json() sends no-store). */
export const GET = apiRoute((context) => {
  const user = context.locals.user;
  return json({ user: user ? { id: user.id, username: user.username, email: user.email, is_admin: user.is_admin === 1 } : null });
});

export const ALL = apiRoute((context: APIContext) =>
  context.request.method === 'HEAD' ? GET(context) : methodNotAllowed(['GET', 'HEAD']),
);
