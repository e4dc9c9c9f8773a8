import fs from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

/** How the service worker is bundled, for the build and for the dev server alike. */
function bundleOptions(root: string): BuildOptions {
  return {
    entryPoints: [path.resolve(root, 'src/client/library/service-worker.js')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    // Workbox's development logging and assertions are left out, as in its own production builds.
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  };
}

/**
 * Bundles the service worker (src/client/library/service-worker.js, on Workbox) into one classic
 * script at `<clientDir>/sw.js`, the address the pages register, so registration and the front
 * server's headers for it stay as they were. Answers its size in bytes.
 */
export async function buildServiceWorker(clientDir: string): Promise<number> {
  const outfile = path.join(clientDir, 'sw.js');
  await build({ ...bundleOptions(process.cwd()), outfile });
  return fs.statSync(outfile).size;
}

/**
 * `npm run dev` serves no built files: this Vite plugin answers `/sw.js` with the service worker
 * bundled afresh on each request (a few tens of milliseconds), so offline reading works and can be
 * changed in development as in the built site.
 */
export function serviceWorkerInDev() {
  return {
    name: 'study-site:service-worker-in-dev',
    configureServer(server: { config: { root: string }; middlewares: { use: (path: string, handler: DevHandler) => void } }) {
      server.middlewares.use('/sw.js', (req, res, next) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        build({ ...bundleOptions(server.config.root), write: false })
          .then((result) => {
            res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
            res.setHeader('Cache-Control', 'no-cache');
            res.end(req.method === 'HEAD' ? undefined : result.outputFiles![0]!.contents);
          })
          .catch(next);
      });
    },
  };
}

type DevHandler = (
  req: { method?: string },
  res: { setHeader: (name: string, value: string) => void; end: (body?: Uint8Array) => void },
  next: (error?: unknown) => void,
) => void;
