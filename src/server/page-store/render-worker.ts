// A pre-render worker process: loads Astro's bundle (its own copy, its own database connection)
// and renders the pages it is sent, compressed, so a full pre-render uses every core. A process
// rather than a thread: when it exits, all its memory goes back to the system, not to the
// server's heap.
import { pathToFileURL } from 'node:url';
import { getAstroRender, renderInProcess } from './astro-render.ts';
import { compressPage } from './store.ts';
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

const [entry, origin] = process.argv.slice(2) as [string, string];
const send = (message: unknown) => process.send!(message);
await import(pathToFileURL(entry).href);
const render = getAstroRender();
if (!render) throw new Error('Astro bundle did not register its renderer (src/fetch.ts)');

process.on('message', (job: WorkerJob) => {
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
      send(answer);
    } catch (error) {
      send({
        id: job.id,
        key: job.key,
        status: 500,
        contentType: '',
        tags: null,
        body: new Uint8Array(),
        gzip: null,
        br: null,
        error: String(error),
      });
    }
  })();
});
send('ready');
// The server going away ends the worker too.
process.on('disconnect', () => process.exit(0));
