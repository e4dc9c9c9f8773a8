/*
 * The site's service worker on Workbox, bundled by scripts/build-service-worker.ts into /sw.js.
 * It keeps the offline and library pages' shells (nothing personal in either) and the public pages
 * read lately with their images and scripts, within RECENT_LIMIT_BYTES; and answers from the
 * saved articles' own caches, which the pages fill (offline-copies.ts). Pages come from the
 * network first, so a reader online always gets the current article.
 * Never intercepted, never kept: /api, /admin and the account pages.
 */
import { clientsClaim } from 'workbox-core';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { ARTICLE_CACHE_PREFIX, RECENT_CACHE } from './offline-copies.ts';
import { byteBoundPlugin } from './sw-lru.js';
import { ACCOUNT_PAGES } from '../../shared/site-map/paths.ts';

const SHELL_CACHE = 'shell-v1';
const SHELL_PAGES = [ACCOUNT_PAGES.offline, ACCOUNT_PAGES.library];
const RECENT_LIMIT_BYTES = 50 * 1024 * 1024;
const matchOptions = { ignoreVary: true };

/** The shared public pages (the page store's routes): the only pages kept for reading offline. */
const PUBLIC_PAGE = /^\/(?:blogs|blog\/[1-9]\d{0,14}|download|about|contact)?$/;
const NEVER = /^\/(?:admin|api|login|logout|register|setup|account|sw\.js)(?:\/|$)/i;
const ours = (url) => url.origin === self.location.origin && !NEVER.test(url.pathname);

/** Whole answers only: a byte range is not the file, and PDFs are kept only for saved articles. */
const wholeAnswers = {
  cacheWillUpdate: ({ request, response }) =>
    response.status === 200 && response.type === 'basic' && !request.headers.has('range') && !/\.pdf$/i.test(request.url)
      ? response
      : null,
};
/** A saved article's copy (or a shell's file) sits in a cache of its own: look in every cache. */
const anyCache = {
  cachedResponseWillBeUsed: async ({ request, cachedResponse }) => cachedResponse ?? caches.match(request, matchOptions),
};
/** A saved article read online: its offline copy becomes this fresh one. */
const freshSavedCopy = {
  async cacheDidUpdate({ request, newResponse }) {
    const id = /\/blog\/(\d+)$/.exec(request.url)?.[1];
    if (id && (await caches.has(ARTICLE_CACHE_PREFIX + id)))
      await (await caches.open(ARTICLE_CACHE_PREFIX + id)).put(request, newResponse);
  },
};
/** A shell page's own scripts and styles, kept with it so it renders offline. */
const shellFiles = {
  async cacheDidUpdate({ newResponse }) {
    const cache = await caches.open(SHELL_CACHE);
    const html = await newResponse.text();
    const assets = new Set(
      [...html.matchAll(/\b(?:src|href|component-url|renderer-url)="(\/_astro\/[^"?#]+)"/g)].map((m) => m[1]),
    );
    await Promise.allSettled([...assets].map(async (asset) => (await cache.match(asset, matchOptions)) || cache.add(asset)));
  },
};

const recentBound = byteBoundPlugin(RECENT_CACHE, RECENT_LIMIT_BYTES);
const shell = new NetworkFirst({ cacheName: SHELL_CACHE, matchOptions, plugins: [wholeAnswers, shellFiles] });
const publicPages = new NetworkFirst({
  cacheName: RECENT_CACHE,
  matchOptions,
  plugins: [wholeAnswers, recentBound, anyCache, freshSavedCopy],
});
// Hashed scripts and styles, and uploads (never changed in place): a kept copy is as good as the network's.
// A byte range of a kept file (a PDF viewer reading page by page) is cut from it: 206, not the whole file.
const files = new CacheFirst({
  cacheName: RECENT_CACHE,
  matchOptions,
  plugins: [wholeAnswers, recentBound, anyCache, new RangeRequestsPlugin()],
});

const navigation =
  (test) =>
  ({ request, url }) =>
    request.mode === 'navigate' && ours(url) && test(url);
registerRoute(
  navigation((url) => SHELL_PAGES.includes(url.pathname) && !url.search),
  shell,
);
registerRoute(
  navigation((url) => PUBLIC_PAGE.test(url.pathname) && !url.searchParams.has('search')),
  publicPages,
);
registerRoute(({ url }) => ours(url) && /^\/(?:_astro|uploads)\//.test(url.pathname), files);
registerRoute(
  navigation(() => true),
  new NetworkOnly(),
);
// No network and no kept copy: the offline page (or the library's shell, which lists this device's saves).
setCatchHandler(async ({ request, url }) => {
  if (request.mode !== 'navigate') return Response.error();
  return (
    (await caches.match(SHELL_PAGES.includes(url.pathname) ? url.pathname : ACCOUNT_PAGES.offline, matchOptions)) ??
    Response.error()
  );
});

self.addEventListener('install', (event) => {
  const kept = SHELL_PAGES.map((path) => shell.handleAll({ event, request: new Request(path, { cache: 'no-cache' }) })[1]);
  event.waitUntil(Promise.all(kept).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (event) => {
  const old = (names) => names.filter((name) => name.startsWith('shell-') && name !== SHELL_CACHE);
  event.waitUntil(caches.keys().then((names) => Promise.all(old(names).map((name) => caches.delete(name)))));
});
clientsClaim();
