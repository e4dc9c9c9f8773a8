import { defineMiddleware } from 'astro:middleware';
import { getAppContext, noPageCache, type AppBase, type AppContext } from './server/context.ts';
import { createViewCounter } from './server/content/clicks.ts';
import { createSearchIndex } from './server/content/search-vocabulary.ts';
import { AppError } from './server/errors.ts';
import { errorResponse } from './server/api/respond.ts';
import { readCredential } from './server/auth/credentials.ts';
import { isSameOriginRequest } from './server/auth/csrf.ts';
import { validateSessionToken } from './server/auth/sessions.ts';
import { isAdminApi, isAdminPage } from './server/auth/access.ts';
import { mustSetUpTwoFactor } from './server/auth/account-policy.ts';
import { ACCOUNT_PAGES } from './shared/site-map/paths.ts';

/**
 * Runs before every route Astro renders: opens the app context, resolves the signed-in user from
 * the Bearer token or the session cookie (checked against the database on every request), refuses
 * cross-site cookie writes, and keeps /admin pages and admin /api calls to admins. It never sets a
 * cookie: only the /api/users endpoints and /logout do, so public pages stay shareable.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  // The HTTP server passes the context in; under `astro dev` it is opened here, once.
  if (!context.locals.app) context.locals.app = getAppContext(openForDev);
  context.locals.user = null;
  context.locals.sessionId = null;
  const { config, db } = context.locals.app;
  const { request, url } = context;

  const credential = readCredential(request.headers, context.cookies, config);
  if (credential.source === 'cookie') {
    const sameOrigin = isSameOriginRequest({
      method: request.method,
      origin: request.headers.get('origin'),
      secFetchSite: request.headers.get('sec-fetch-site'),
      publicOrigin: config.publicOrigin,
    });
    if (!sameOrigin) {
      return errorResponse(new AppError('csrf', 'This request did not come from this site, so it was refused.'));
    }
  }
  if (credential.source !== 'none') {
    const valid = await validateSessionToken(db, credential.token);
    if (valid) {
      context.locals.user = valid.user;
      context.locals.sessionId = valid.session.id;
    }
  }

  const user = context.locals.user;
  const isAdmin = user?.is_admin === 1;
  const adminPage = isAdminPage(url.pathname);
  if (adminPage && !isAdmin) {
    return new Response(null, { status: 302, headers: { Location: ACCOUNT_PAGES.login, 'Cache-Control': 'no-store' } });
  }
  if (!isAdmin && isAdminApi(request.method, url.pathname)) {
    return errorResponse(
      user ? new AppError('forbidden', 'Only admins can do that.') : new AppError('not_logged_in', 'You need to log in first.'),
    );
  }

  // The owner requires two-factor sign-in: an admin without it sets it up on /account first.
  if (isAdmin && (adminPage || isAdminApi(request.method, url.pathname)) && (await mustSetUpTwoFactor(db, user))) {
    if (adminPage)
      return new Response(null, { status: 302, headers: { Location: ACCOUNT_PAGES.twoFactor, 'Cache-Control': 'no-store' } });
    return errorResponse(
      new AppError(
        'two_factor_setup_required',
        'Set up two-factor sign-in on your account page first: this site requires it for admins.',
      ),
    );
  }

  const response = await next();
  // Admin screens are per-user: no shared cache may keep them.
  return adminPage ? withHeader(response, 'Cache-Control', 'private, no-store') : response;
});

/**
 * `astro dev`'s context: no front server made one, so the parts the routes use are made here, in
 * this one process (no page store, search worker, scheduler or mail sender runs under `astro dev`).
 */
function openForDev(base: AppBase): AppContext {
  return {
    ...base,
    pageCache: noPageCache,
    views: createViewCounter({ db: base.db }),
    searchIndex: createSearchIndex(base.db, base.sqlite),
  };
}

function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    // Some responses (redirects made by Response.redirect) have immutable headers.
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
