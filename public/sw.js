/*
 * The site's service worker, hand-written (no build step; see docs/offline-reading.md). It keeps:
 * - the offline page and the library page's shell (neither holds anything personal);
 * - the public pages read lately, with their images and scripts, within RECENT_LIMIT_BYTES
 *   (least recently used dropped first);
 * and answers from the saved articles' own caches, which the pages fill with the Cache API
 * (src/client/library/offline-copies.ts). Pages are fetched from the network first, so a reader
 * online always gets the current article; the copy is only for when the network is gone.
 * Never intercepted, never kept: /api, /admin and the account pages.
 */
importScripts('/sw-lru.js');

const SHELL_CACHE = 'shell-v1';
const RECENT_CACHE = 'recent-pages';
const RECENT_INDEX = '/__sw/recent-index';
const RECENT_LIMIT_BYTES = 50 * 1024 * 1024;
const ARTICLE_CACHE_PREFIX = 'library-article-';
const SHELL_PAGES = ['/offline', '/library'];

/** The shared public pages (the page store's routes): the only pages kept for reading offline. */
const PUBLIC_PAGE = /^\/(?:blogs|blog\/[1-9]\d{0,14}|download|about|contact)?$/;
const NEVER = /^\/(?:admin|api|login|logout|register|setup|account|sw\.js|sw-lru\.js)(?:\/|$)/i;

/** Same-origin /_astro files a page loads (scripts, styles, island scripts). */
function assetsOf(html) {
  const found = new Set();
  for (const match of html.matchAll(/\b(?:src|href|component-url|renderer-url)="(\/_astro\/[^"?#]+)"/g)) found.add(match[1]);
  return [...found];
}

async function keepShellPage(path, response) {
  const html = await response.clone().text();
  const cache = await caches.open(SHELL_CACHE);
  await cache.put(path, response);
  await Promise.allSettled(
    assetsOf(html).map(async (asset) => {
      if (await cache.match(asset, { ignoreVary: true })) return;
      const file = await fetch(asset);
      if (file.ok) await cache.put(asset, file);
    }),
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    Promise.all(
      SHELL_PAGES.map(async (path) => {
        const response = await fetch(path, { cache: 'no-cache' });
        if (response.ok) await keepShellPage(path, response);
      }),
    ).then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith('shell-') && n !== SHELL_CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// Index updates run one at a time, so two pages stored together cannot lose each other's entry.
let indexQueue = Promise.resolve();
function updateIndex(change) {
  indexQueue = indexQueue.then(change).catch(() => {});
  return indexQueue;
}

async function readIndex(cache) {
  const stored = await cache.match(RECENT_INDEX);
  try {
    return stored ? await stored.json() : {};
  } catch {
    return {};
  }
}

async function writeIndex(cache, index) {
  for (const key of self.chooseEvictions(index, RECENT_LIMIT_BYTES)) {
    await cache.delete(key);
    delete index[key];
  }
  await cache.put(RECENT_INDEX, new Response(JSON.stringify(index), { headers: { 'Content-Type': 'application/json' } }));
}

function rememberRecent(key, response) {
  return updateIndex(async () => {
    const size = (await response.clone().blob()).size;
    const cache = await caches.open(RECENT_CACHE);
    await cache.put(key, response);
    const index = await readIndex(cache);
    index[key] = { size, at: Date.now() };
    await writeIndex(cache, index);
  });
}

function touchRecent(key) {
  return updateIndex(async () => {
    const cache = await caches.open(RECENT_CACHE);
    const index = await readIndex(cache);
    if (!index[key]) return;
    index[key].at = Date.now();
    await writeIndex(cache, index);
  });
}

/** A saved article read online: its offline copy becomes this fresh one. */
async function refreshSavedCopy(key, response) {
  const match = /^\/blog\/(\d+)$/.exec(key);
  if (!match || !(await caches.has(ARTICLE_CACHE_PREFIX + match[1]))) return;
  await (await caches.open(ARTICLE_CACHE_PREFIX + match[1])).put(key, response);
}

async function navigate(event, url) {
  const key = url.pathname + url.search;
  try {
    const response = await fetch(event.request);
    if (response.ok && response.type === 'basic') {
      if (SHELL_PAGES.includes(url.pathname) && !url.search) event.waitUntil(keepShellPage(url.pathname, response.clone()));
      else if (PUBLIC_PAGE.test(url.pathname) && !url.searchParams.has('search'))
        event.waitUntil(Promise.all([refreshSavedCopy(key, response.clone()), rememberRecent(key, response.clone())]));
    }
    return response;
  } catch (error) {
    const kept = PUBLIC_PAGE.test(url.pathname) ? await caches.match(key, { ignoreVary: true }) : undefined;
    if (kept) {
      event.waitUntil(touchRecent(key));
      return kept;
    }
    const shell = SHELL_PAGES.includes(url.pathname) ? url.pathname : '/offline';
    const fallback = await caches.match(shell, { ignoreVary: true });
    if (fallback) return fallback;
    throw error;
  }
}

/** Hashed scripts and styles, and uploads (never changed in place): a kept copy is as good as the network's. */
async function fromCacheFirst(event, url) {
  const key = url.pathname;
  const kept = await caches.match(key, { ignoreVary: true });
  if (kept) {
    event.waitUntil(touchRecent(key));
    return kept;
  }
  const response = await fetch(event.request);
  // PDFs are kept only for saved articles (their own caches); a byte range is not the whole file.
  const keep = response.status === 200 && response.type === 'basic' && !key.toLowerCase().endsWith('.pdf');
  if (keep && !event.request.headers.has('range')) event.waitUntil(rememberRecent(key, response.clone()));
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === 'navigate') event.respondWith(navigate(event, url));
  else if (url.pathname.startsWith('/_astro/') || url.pathname.startsWith('/uploads/'))
    event.respondWith(fromCacheFirst(event, url));
});
