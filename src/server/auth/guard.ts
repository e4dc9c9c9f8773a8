import type { APIContext } from 'astro';
import { AppError } from '../errors.ts';
import type { PublicUser } from '../db/repositories/users.ts';

/**
 * Deny by default: every admin endpoint calls requireAdmin first. `locals.user` is set by the
 * middleware from the session cookie or the Bearer token, checked against the database on every
 * request.
 */
export function requireUser(context: Pick<APIContext, 'locals'>): PublicUser {
  const user = context.locals.user;
  if (!user) throw new AppError('not_logged_in', 'You need to log in first.');
  return user;
}

export function requireAdmin(context: Pick<APIContext, 'locals'>): PublicUser {
  const user = requireUser(context);
  if (user.is_admin !== 1) throw new AppError('forbidden', 'Only admins can do that.');
  return user;
}

/** The signed-in user and the session making the request, for the reader's own account endpoints. */
export function requireSession(context: Pick<APIContext, 'locals'>): { user: PublicUser; sessionId: string | null } {
  return { user: requireUser(context), sessionId: context.locals.sessionId };
}
