// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { serviceWorkerInDev } from './scripts/build-service-worker.ts';
import { reactIslandsToString } from './scripts/react-islands-to-string.ts';

// Every public page is rendered on demand and kept in our own page store (src/server/page-store);
// the node adapter runs in middleware mode so src/server/front/main.ts can answer stored pages
// and static files before a request ever reaches Astro.
export default defineConfig({
  output: 'server',
  // Streaming off: pages are stored whole, and one write beats hundreds of small ones.
  // 21 MB: a 20 MB PDF plus its form; each endpoint enforces its own, smaller limit.
  adapter: node({ mode: 'middleware', bodySizeLimit: 21 * 1024 * 1024, experimentalDisableStreaming: true }),
  // Islands rendered on the server by React's renderToString with Astro's id prefix, not read
  // back through a web stream (scripts/react-islands-to-string.ts).
  integrations: [react({ experimentalDisableStreaming: true })],
  security: {
    // Our own middleware does the CSRF check: Astro's built-in one refuses Bearer API clients.
    checkOrigin: false,
    // Astro hashes every script and style it inlines (island runtime, small hoisted scripts) and
    // sends the policy as a header; the front server narrows it to the hashes of each page's own
    // inline scripts and styles, for rendered and stored pages alike (src/server/front/page-policy.ts).
    csp: {
      directives: [
        "default-src 'self'",
        // Article images may be linked from other sites (the sanitizer allows http/https only);
        // video thumbnails come from i.ytimg.com. An image cannot run script.
        "img-src 'self' https:",
        // Article content may only frame YouTube (the sanitizer sees to that); an article's video
        // field embeds other https addresses as they are (docs/product.md#validation-rules), so frames may come
        // from any https site. A frame cannot reach this origin.
        'frame-src https:',
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
      // No inline event handlers anywhere, ours or injected.
      scriptDirective: { resources: [{ resource: "'none'", kind: 'attribute' }] },
      // Text colours in articles are style attributes (the sanitizer keeps only color and
      // background-color on spans); style elements and sheets stay limited to 'self' and hashes.
      styleDirective: { resources: [{ resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
  // No Markdown pages; Shiki's inline styles would need style-src 'unsafe-inline'.
  markdown: { syntaxHighlight: false },
  server: { host: '127.0.0.1' },
  devToolbar: { enabled: false },
  cache: { provider: { entrypoint: './src/server/page-store/cache-provider.ts', name: 'page-store' } },
  vite: {
    ssr: { external: ['better-sqlite3', '@node-rs/argon2', 'sharp'] },
    // The built server serves /sw.js from the build; the dev server bundles it on request.
    plugins: [serviceWorkerInDev(), reactIslandsToString()],
  },
});
