// A render worker thread (render-pool.ts): loads Astro's built server with its own read-only
// database connection and renders the public pages it is sent. It never writes: the serving
// thread stores what it answers (and compresses a page when a reader first asks for an encoding).
import fs from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { noPageCache, setAppContext } from '../context.ts';
import { openDatabase } from '../db/client.ts';
import { getAstroRender, renderInProcess, storableTags } from './astro-render.ts';
import type { WorkerJob, WorkerMessage } from './render-pool.ts';
import { createJobRunner } from './worker-jobs.ts';
import { answerDigestsInThread } from './sync-digest.ts';

export interface RenderWorkerData {
  /** The built server entry (dist/server/entry.mjs). */
  entry: string;
  /** The origin pages are rendered for (the configured public origin). */
  origin: string;
  config: Config;
  /** Added to the thread's nice value, so readers' requests win the CPU over renders. */
  nice: number;
  /** Test seam (NODE_ENV=test only): while this file exists, a render of the key it names waits. */
  holdFile: string | null;
}

/** What a worker answers for one page. */
export interface WorkerAnswer {
  key: string;
  status: number;
  headers: Record<string, string>;
  setsCookie: boolean;
  /** The page's tags when it may be stored (a 200 with tags and no cookie), else null. */
  tags: string[] | null;
  body: Uint8Array;
}

const data = workerData as RenderWorkerData;
const port = parentPort!;
try {
  // Linux keeps a nice value per thread: this lowers only this worker's.
  if (data.nice > 0) os.setPriority(data.nice);
} catch {
  // Not allowed here: renders then compete with readers on equal terms.
}
answerDigestsInThread();
const { db, sqlite } = openDatabase(data.config.databasePath, { readOnly: true });
setAppContext({ config: data.config, db, sqlite, pageCache: noPageCache });
await import(pathToFileURL(data.entry).href);
const render = getAstroRender();
if (!render) throw new Error('Astro bundle did not register its renderer (src/fetch.ts)');

async function holdWhileAsked(key: string): Promise<void> {
  const file = data.holdFile;
  if (!file) return;
  const named = () => {
    try {
      return fs.readFileSync(file, 'utf8').trim() === key;
    } catch {
      return false;
    }
  };
  if (!named()) return;
  fs.writeFileSync(`${file}.held`, key);
  while (named()) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function renderPage(key: string): Promise<WorkerAnswer> {
  await holdWhileAsked(key);
  const rendered = await renderInProcess(render!, data.origin, key);
  return { key, ...rendered, tags: storableTags(rendered) };
}

/**
 * The body in a buffer of its own, handed over (not copied) with the message: a view on a larger
 * buffer would be cloned whole.
 */
function packed(answer: WorkerAnswer): { answer: WorkerAnswer; transfer: ArrayBuffer[] } {
  const { body } = answer;
  const own =
    body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer
      ? body
      : new Uint8Array(body);
  return { answer: { ...answer, body: own }, transfer: [own.buffer as ArrayBuffer] };
}

const submit = createJobRunner<WorkerJob>((job) =>
  renderPage(job.key).then(
    (rendered) => {
      const { answer, transfer } = packed(rendered);
      port.postMessage({ id: job.id, answer } satisfies WorkerMessage<WorkerAnswer>, transfer);
    },
    (error: unknown) => port.postMessage({ id: job.id, error: String(error) } satisfies WorkerMessage<WorkerAnswer>),
  ),
);
port.on('message', submit);
port.postMessage({ ready: true } satisfies WorkerMessage<WorkerAnswer>);
