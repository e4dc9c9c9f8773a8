import type { PageStore } from './store.ts';
import { BACKGROUND_GATHER_MS, StoreBatch } from './store-batch.ts';
import type { RenderPool } from './render-pool.ts';
import type { WorkerAnswer } from './render-worker.ts';
import { pageInputOf } from './stored-page.ts';
import { storedStatusOf } from './not-found-page.ts';
import type { PrerenderSummary } from './prerender-summary.ts';
import { STORED_ENCODINGS } from './compress-page.ts';
import type { KeyList } from './packed-keys.ts';

export type { PrerenderSummary };

/**
 * Draws a progress bar on a terminal, or a line every 10% when the output is a log. `part` names
 * the share when several processes each render part of the site, so "53/53" is not read as the
 * whole site.
 */
export function progressPrinter(total: number, out: NodeJS.WriteStream | null, part = '') {
  if (!out) return () => {};
  const what = part ? `Pre-rendering ${part}` : 'Pre-rendering';
  const started = performance.now();
  let lastDecile = -1;
  return (done: number) => {
    const rate = done / Math.max(0.001, (performance.now() - started) / 1000);
    if (out.isTTY) {
      const width = 30;
      const filled = Math.round((done / total) * width);
      out.write(`\r${what} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} pages ${rate.toFixed(0)}/s `);
      if (done === total) out.write('\n');
    } else {
      const decile = Math.floor((done / total) * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        out.write(`${what}: ${done}/${total} pages (${rate.toFixed(0)}/s)\n`);
      }
    }
  };
}

export interface PrerenderOptions {
  /** The render pool's workers render and compress; this thread only writes the store. */
  pool: RenderPool<WorkerAnswer>;
  /** Renders handed to the pool at once (it keeps every worker busy). */
  inFlight?: number;
  out?: NodeJS.WriteStream | null;
  /** Which part of the site this is, when several processes share the pre-render (for the progress lines). */
  part?: string;
  /** Stops the pre-render early (the server is closing): nothing more is sent or stored. */
  signal?: AbortSignal;
}

/**
 * Renders every URL into the page store on the render pool, at background priority (a reader's
 * miss goes first), in the order given (the site's most read pages first). It stops once the
 * store nears its disk budget: past it every page stored would evict one stored earlier, the
 * least recently used, which after a pre-render is the first stored, so a site larger than the
 * budget ended with its home page and articles pushed out by its deepest list pages, and each
 * batch paid for an eviction. Prints progress and returns the figures.
 */
export async function prerenderAll(store: PageStore, urls: KeyList, options: PrerenderOptions): Promise<PrerenderSummary> {
  const started = performance.now();
  const inFlight = options.inFlight ?? Math.max(4, options.pool.status().size * 4);
  const show = progressPrinter(urls.length, options.out === undefined ? process.stdout : options.out, options.part);
  let next = 0;
  let done = 0;
  let stored = 0;
  let failed = 0;
  const writer = new StoreBatch(store, {
    keepInMemory: false,
    gatherMs: BACKGROUND_GATHER_MS,
    onStored: (count) => (stored += count),
  });

  const renderOne = async (key: string): Promise<void> => {
    // A reader may have had the page rendered meanwhile: keep it.
    if (store.hasFresh(key)) return;
    const startedAt = store.beginRender();
    try {
      const answer = await options.pool.render(key, 'background', { encodings: [...STORED_ENCODINGS] });
      if (options.signal?.aborted) return;
      const input = pageInputOf(answer);
      // The 404 page is stored with its own 404; any other page must answer 200.
      if (answer.status !== storedStatusOf(key)) failed++;
      else if (input) void writer.add({ key, input, renderStartedAt: startedAt });
    } catch (error) {
      failed++;
      if (!options.signal?.aborted) console.error(`\n[prerender] ${key}: ${String(error)}`);
    }
  };

  await Promise.all(
    Array.from({ length: Math.min(inFlight, urls.length) }, async () => {
      while (next < urls.length && !options.signal?.aborted && store.hasRoom()) {
        await renderOne(urls.at(next++)!);
        show(++done);
      }
    }),
  );
  if (options.signal?.aborted) writer.drop();
  else writer.flush();
  const seconds = (performance.now() - started) / 1000;
  const left = options.signal?.aborted ? 0 : urls.length - done;
  return { pages: done, stored, failed, left, seconds, stopped: options.signal?.aborted ?? false };
}
