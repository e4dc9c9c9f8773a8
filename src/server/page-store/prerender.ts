import os from 'node:os';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PageStore } from './store.ts';
import type { WorkerAnswer, WorkerJob } from './render-worker.ts';

export interface PrerenderSummary {
  pages: number;
  stored: number;
  failed: number;
  seconds: number;
  pagesPerSecond: number;
}

/** Draws a progress bar on a terminal, or a line every 10% when the output is a log. */
function progressPrinter(total: number, out: NodeJS.WriteStream | null) {
  if (!out) return () => {};
  const started = performance.now();
  let lastDecile = -1;
  return (done: number) => {
    const rate = done / Math.max(0.001, (performance.now() - started) / 1000);
    if (out.isTTY) {
      const width = 30;
      const filled = Math.round((done / total) * width);
      out.write(
        `\rPre-rendering [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} pages ${rate.toFixed(0)}/s `,
      );
      if (done === total) out.write('\n');
    } else {
      const decile = Math.floor((done / total) * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        out.write(`Pre-rendering: ${done}/${total} pages (${rate.toFixed(0)}/s)\n`);
      }
    }
  };
}

export interface PrerenderOptions {
  /** The built server entry (dist/server/entry.mjs) each worker loads. */
  entry: string;
  /** Origin the pages are rendered for (URLs inside pages use the configured public origin). */
  origin: string;
  workers?: number;
  /** Renders in flight per worker, so a worker never waits on the main thread. */
  inFlight?: number;
  out?: NodeJS.WriteStream | null;
  /** Stops the pre-render early (the server is closing): workers are stopped, nothing more is stored. */
  signal?: AbortSignal;
}

function startWorker(entry: string, origin: string): Promise<ChildProcess> {
  const worker = fork(fileURLToPath(new URL('./render-worker.ts', import.meta.url)), [entry, origin], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`A render worker exited with ${code} before it was ready`)));
    worker.once('message', (message) => {
      worker.removeAllListeners('error');
      worker.removeAllListeners('exit');
      if (message === 'ready') resolve(worker);
      else reject(new Error(`Unexpected first message from a render worker: ${String(message)}`));
    });
  });
}

/**
 * Renders every URL into the page store with one worker process per core: workers render and
 * compress, this thread writes the store. Prints progress and returns the figures.
 */
export async function prerenderAll(store: PageStore, urls: string[], options: PrerenderOptions): Promise<PrerenderSummary> {
  const started = performance.now();
  const count = Math.max(1, Math.min(options.workers ?? os.availableParallelism(), urls.length));
  const inFlight = options.inFlight ?? 4;
  const show = progressPrinter(urls.length, options.out === undefined ? process.stdout : options.out);
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker(options.entry, options.origin)));
  let next = 0;
  let done = 0;
  let stored = 0;
  let failed = 0;
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const startedAt = new Map<number, number>();
            let active = 0;
            const send = () => {
              if (options.signal?.aborted) {
                resolve();
                return;
              }
              while (active < inFlight && next < urls.length) {
                const id = next++;
                // A reader may have had the page rendered meanwhile: keep it.
                const current = store.get(urls[id]!);
                if (current && store.isFresh(current)) {
                  show(++done);
                  continue;
                }
                startedAt.set(id, store.beginRender());
                active++;
                worker.send({ id, key: urls[id]! } satisfies WorkerJob);
              }
              if (active === 0) resolve();
            };
            worker.on('message', (message) => {
              const answer = message as WorkerAnswer;
              active--;
              if (options.signal?.aborted) return send();
              if (answer.error || answer.status >= 400) {
                failed++;
                if (answer.error) console.error(`\n[prerender] ${answer.key}: ${answer.error}`);
              } else if (answer.tags && answer.gzip && answer.br) {
                const page = store.put(
                  answer.key,
                  {
                    contentType: answer.contentType,
                    tags: answer.tags,
                    body: Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength),
                    gzip: Buffer.from(answer.gzip.buffer, answer.gzip.byteOffset, answer.gzip.byteLength),
                    br: Buffer.from(answer.br.buffer, answer.br.byteOffset, answer.br.byteLength),
                  },
                  startedAt.get(answer.id)!,
                  { keepInMemory: false },
                );
                if (page) stored++;
              }
              startedAt.delete(answer.id);
              show(++done);
              send();
            });
            worker.once('error', reject);
            worker.once('exit', (code) => {
              if (active > 0) reject(new Error(`A render worker exited with ${code} during the pre-render`));
            });
            send();
          }),
      ),
    );
  } finally {
    for (const worker of workers) {
      worker.removeAllListeners('exit');
      worker.kill();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return { pages: urls.length, stored, failed, seconds, pagesPerSecond: urls.length / Math.max(seconds, 0.001) };
}
