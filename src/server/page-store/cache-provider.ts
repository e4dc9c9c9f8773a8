import type { CacheProvider } from 'astro';
import { getAppContext } from '../context.ts';
import { readTagName, type PageTag } from './site-tags.ts';

/**
 * Astro's route-caching provider, bridging Astro's API to our page store.
 * Pages declare their tags with `Astro.cache.set({ tags })`; Astro hands them to this provider as
 * a `Cache-Tag` header, which it strips before the response leaves. We copy them to `X-Page-Tags`
 * for the page renderer (src/server/page-store/renderer.ts), which stores the page under them; the
 * front server never lets that header reach a browser. `cache.invalidate({ tags })` from an
 * endpoint goes through the same port as every service: `context.pageCache` (src/server/context.ts).
 */
export default function createProvider(): CacheProvider {
  return {
    name: 'study-site-page-store',
    async onRequest(_context, next) {
      const response = await next();
      const tags = response.headers.get('Cache-Tag');
      if (tags) response.headers.set('X-Page-Tags', tags);
      return response;
    },
    async invalidate(options) {
      const tags = options.tags === undefined ? [] : Array.isArray(options.tags) ? options.tags : [options.tags];
      // The one place tags come back as strings: whatever Astro was handed, spelled by tagName().
      const known = tags.map(readTagName).filter((t): t is PageTag => t !== null);
      await getAppContext().pageCache.invalidate(known);
    },
  };
}
