// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';

// Every public page is rendered on demand and kept in our own page store (src/server/rebuild);
// the node adapter runs in middleware mode so src/server/http/main.ts can answer stored pages
// and static files before a request ever reaches Astro.
export default defineConfig({
  output: 'server',
  // Streaming off: pages are stored whole, and one write beats hundreds of small ones.
  // 21 MB: a 20 MB PDF plus its form; each endpoint enforces its own, smaller limit.
  adapter: node({ mode: 'middleware', bodySizeLimit: 21 * 1024 * 1024, experimentalDisableStreaming: true }),
  integrations: [react()],
  // Our own middleware does the CSRF check: Astro's built-in one refuses Bearer API clients.
  security: { checkOrigin: false },
  server: { host: '127.0.0.1' },
  devToolbar: { enabled: false },
  cache: { provider: { entrypoint: './src/server/rebuild/cache-provider.ts', name: 'page-store' } },
  vite: {
    ssr: { external: ['better-sqlite3', '@node-rs/argon2', 'sharp'] },
  },
});
