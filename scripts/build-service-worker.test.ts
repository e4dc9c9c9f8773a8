import { describe, expect, it } from 'vitest';
import { serviceWorkerInDev } from './build-service-worker.ts';

type Handler = Parameters<Parameters<ReturnType<typeof serviceWorkerInDev>['configureServer']>[0]['middlewares']['use']>[1];

/** The plugin's middleware as the dev server mounts it, asked for /sw.js. */
async function ask(method: string): Promise<{ headers: Record<string, string>; body: string; passed: boolean }> {
  let handler: Handler | undefined;
  serviceWorkerInDev().configureServer({
    config: { root: process.cwd() },
    middlewares: { use: (path, mounted) => path === '/sw.js' && (handler = mounted) },
  });
  const headers: Record<string, string> = {};
  return new Promise((resolve, reject) =>
    handler!(
      { method },
      {
        setHeader: (name, value) => (headers[name.toLowerCase()] = value),
        end: (body) => resolve({ headers, body: body ? Buffer.from(body).toString() : '', passed: false }),
      },
      (error) => (error ? reject(error as Error) : resolve({ headers, body: '', passed: true })),
    ),
  );
}

describe('the service worker in development', () => {
  it('is served at /sw.js by the dev server, bundled as the build bundles it', async () => {
    const answer = await ask('GET');
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.headers['cache-control']).toBe('no-cache');
    // One classic script with Workbox inside, no import left for the browser to resolve.
    expect(answer.body).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(answer.body).toContain('workbox:');
    expect(answer.body).not.toMatch(/\bimport\s*[{(]/);
  });

  it('leaves any other method to the dev server', async () => {
    expect((await ask('POST')).passed).toBe(true);
  });
});
