import type { CacheProvider } from 'astro';

/**
 * Astro's route-caching provider. Pages declare their tags with `Astro.cache.set({ tags })`;
 * Astro hands them to this provider as a `Cache-Tag` header on the rendered response.
 */
export default function createProvider(): CacheProvider {
  return {
    name: 'study-site-page-store',
    async onRequest(_context, next) {
      return next();
    },
    async invalidate() {},
  };
}
