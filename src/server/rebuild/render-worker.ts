// A pre-render worker thread: loads Astro's bundle (its own copy, its own database connection)
// and renders the pages it is sent, compressed, so a full pre-render uses every core.
import { parentPort, workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { getAstroRender, renderInProcess } from './astro-render.ts';
import { compressPage } from './page-store.ts';
import { storableTags } from './renderer.ts';

export interface WorkerJob {
  id: number;
  key: string;
}

export interface WorkerAnswer {
  id: number;
  key: string;
  status: number;
  contentType: string;
  tags: string[] | null;
  body: Uint8Array;
  gzip: Uint8Array | null;
  br: Uint8Array | null;
  error?: string;
}

const { entry, origin } = workerData as { entry: string; origin: string };
await import(pathToFileURL(entry).href);
const render = getAstroRender();
if (!render) throw new Error('Astro bundle did not register its renderer (src/fetch.ts)');

parentPort!.on('message', (job: WorkerJob) => {
  void (async () => {
    try {
      const rendered = await renderInProcess(render, origin, job.key);
      const tags = storableTags(rendered);
      const encoded = tags ? compressPage(rendered.body) : null;
      const answer: WorkerAnswer = {
        id: job.id,
        key: job.key,
        status: rendered.status,
        contentType: rendered.headers['content-type'] ?? 'text/html; charset=utf-8',
        tags,
        body: rendered.body,
        gzip: encoded?.gzip ?? null,
        br: encoded?.br ?? null,
      };
      parentPort!.postMessage(answer);
    } catch (error) {
      parentPort!.postMessage({ id: job.id, key: job.key, status: 500, contentType: '', tags: null, body: new Uint8Array(), gzip: null, br: null, error: String(error) });
    }
  })();
});
parentPort!.postMessage('ready');
