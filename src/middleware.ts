import { defineMiddleware } from 'astro:middleware';
import { getAppContext } from './server/app-context.ts';

export const onRequest = defineMiddleware((context, next) => {
  // The HTTP server passes the context in; under `astro dev` it is opened here.
  if (!context.locals.app) context.locals.app = getAppContext();
  context.locals.user ??= null;
  context.locals.sessionId ??= null;
  return next();
});
