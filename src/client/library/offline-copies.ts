import { articleHref } from '../../shared/site-map/paths.ts';
/**
 * The offline copies of saved articles, kept with the Cache API (which the service worker,
 * service-worker.js, answers from when the network is gone): one cache per article for its page, its
 * images and its attached PDF, plus one cache of the scripts and styles those pages load. Only
 * public, same-origin files are fetched: never an /api answer or an admin page.
 */

export const ARTICLE_CACHE_PREFIX = 'library-article-';
export const LIBRARY_ASSETS_CACHE = 'library-assets';
/** The pages and images read lately (service-worker.js keeps them within its size bound). */
export const RECENT_CACHE = 'recent-pages';

const articleCache = (id: number) => `${ARTICLE_CACHE_PREFIX}${id}`;

/** The browser's storage for this site is full: the article could not be kept offline. */
export class NoRoomOffline extends Error {
  constructor() {
    super('No room left on this device for the offline copy');
    this.name = 'NoRoomOffline';
  }
}

const isQuotaError = (error: unknown) => error instanceof DOMException && error.name === 'QuotaExceededError';
const hasCaches = () => typeof caches !== 'undefined';

/** Same-origin files a page needs offline: its /_astro scripts and styles, and /uploads files it shows or links. */
export function filesOfPage(html: string, pageUrl: string): { assets: string[]; uploads: string[] } {
  const origin = new URL(pageUrl).origin;
  const assets = new Set<string>();
  const uploads = new Set<string>();
  const candidates: string[] = [];
  // Island scripts are named in component-url and renderer-url.
  for (const match of html.matchAll(/\b(?:src|href|component-url|renderer-url)="([^"]+)"/g)) candidates.push(match[1]!);
  for (const match of html.matchAll(/\bsrcset="([^"]+)"/g))
    for (const part of match[1]!.split(',')) candidates.push(part.trim().split(/\s+/)[0] ?? '');
  for (const raw of candidates) {
    let url: URL;
    try {
      url = new URL(raw.replaceAll('&amp;', '&'), pageUrl);
    } catch {
      continue;
    }
    if (url.origin !== origin) continue;
    if (url.pathname.startsWith('/_astro/')) assets.add(url.pathname);
    else if (url.pathname.startsWith('/uploads/')) uploads.add(url.pathname);
  }
  return { assets: [...assets], uploads: [...uploads] };
}

async function store(cache: Cache, path: string): Promise<void> {
  const response = await fetch(path, { credentials: 'same-origin', cache: 'no-cache' });
  if (response.ok && response.type === 'basic') await cache.put(path, response);
}

const listeners = new Set<() => void>();

/** Called after an offline copy was made or dropped (they are made in the background). */
export function onOfflineCopyChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const changed = () => {
  for (const listener of listeners) listener();
};

/**
 * Fetches an article's page fresh and keeps it with everything it shows; run again, it replaces
 * the copy, so an article edited on the site is current offline too. Missing files are skipped.
 * The page is stored last: a kept page means its files were fetched too. Throws NoRoomOffline
 * (keeping nothing of the article) when the browser's storage for the site is full.
 */
export async function keepOffline(id: number): Promise<void> {
  if (!hasCaches()) return;
  const path = articleHref(id);
  const response = await fetch(path, { credentials: 'same-origin', cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  const cache = await caches.open(articleCache(id));
  const { assets, uploads } = filesOfPage(html, new URL(path, location.href).href);
  const assetCache = await caches.open(LIBRARY_ASSETS_CACHE);
  const missingAssets = [];
  for (const asset of assets) if (!(await assetCache.match(asset))) missingAssets.push(asset);
  const stored = await Promise.allSettled([
    ...missingAssets.map((asset) => store(assetCache, asset)),
    ...uploads.map((file) => store(cache, file)),
  ]);
  let noRoom = stored.some((result) => result.status === 'rejected' && isQuotaError(result.reason));
  if (!noRoom) {
    try {
      await cache.put(path, response);
    } catch (error) {
      if (!isQuotaError(error)) throw error;
      noRoom = true;
    }
  }
  if (noRoom) {
    // Half a copy (the page without its PDF, say) would be listed as available offline: none is kept.
    await caches.delete(articleCache(id));
    changed();
    throw new NoRoomOffline();
  }
  changed();
}

export async function dropOffline(id: number): Promise<void> {
  if (hasCaches() && (await caches.delete(articleCache(id)))) changed();
}

/** Is an offline copy of the article's page kept? */
export async function isKeptOffline(id: number): Promise<boolean> {
  if (!hasCaches()) return false;
  return Boolean(await (await caches.open(articleCache(id))).match(articleHref(id)));
}

/** Drops the copies of articles no longer saved (another device removed them, say). */
export async function dropOfflineExcept(keep: ReadonlySet<number>): Promise<void> {
  if (!hasCaches()) return;
  for (const name of await caches.keys()) {
    if (!name.startsWith(ARTICLE_CACHE_PREFIX)) continue;
    if (!keep.has(Number(name.slice(ARTICLE_CACHE_PREFIX.length)))) await caches.delete(name);
  }
}

/** Logout: nothing this reader saved or read stays on the device. */
export async function dropAllReaderCopies(): Promise<void> {
  if (!hasCaches()) return;
  for (const name of await caches.keys())
    if (name.startsWith(ARTICLE_CACHE_PREFIX) || name === LIBRARY_ASSETS_CACHE || name.startsWith('recent-'))
      await caches.delete(name);
}
