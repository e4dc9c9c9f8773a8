import type { PageStore } from './store.ts';
import type { PageRenderer } from './renderer.ts';
import type { PageEncoding } from './compress-page.ts';

export interface BackfillSummary {
  made: number;
  seconds: number;
}

/**
 * Makes `encoding` of each stored page in `keys` that lacks it, one page at a time on the render
 * pool at background priority, after a pre-render. The pre-render makes each page's brotli copy
 * with it; the pages readers had rendered meanwhile (they waited, so theirs were stored as
 * rendered) get theirs here, and the file drops their bodies. One job at a time: a reader's
 * render, a save's hot pages and the refresh after a change wait at most for one compression, and
 * the worker runs it at its raised nice value, so serving threads keep the CPU. Stops when `signal` aborts; makes
 * none once the store nears its disk budget (`versionLacking`).
 */
export async function makeMissingEncodings(
  store: PageStore,
  renderer: PageRenderer,
  keys: Iterable<string>,
  encoding: PageEncoding,
  signal?: AbortSignal,
): Promise<BackfillSummary> {
  const started = performance.now();
  let made = 0;
  for (const key of keys) {
    if (signal?.aborted) break;
    const page = store.versionLacking(key, encoding);
    if (!page) continue;
    await renderer.encode(page, encoding, 'background');
    if (page[encoding]) made++;
  }
  return { made, seconds: (performance.now() - started) / 1000 };
}
