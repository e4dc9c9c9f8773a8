import type { PageRenderer } from './renderer.ts';

export interface PrerenderSummary {
  pages: number;
  stored: number;
  failed: number;
  seconds: number;
  pagesPerSecond: number;
}

/** Draws a progress bar on a terminal, or a line every 10% when the output is a log. */
function progressPrinter(total: number, out: NodeJS.WriteStream) {
  const started = performance.now();
  let lastDecile = -1;
  return (done: number) => {
    const rate = done / Math.max(0.001, (performance.now() - started) / 1000);
    if (out.isTTY) {
      const width = 30;
      const filled = Math.round((done / total) * width);
      out.write(`\rPre-rendering [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} pages ${rate.toFixed(0)}/s `);
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

/** Renders every URL into the page store, a few at a time, and prints progress. */
export async function prerenderAll(
  renderer: PageRenderer,
  urls: string[],
  options: { concurrency?: number; out?: NodeJS.WriteStream | null } = {},
): Promise<PrerenderSummary> {
  const started = performance.now();
  const concurrency = options.concurrency ?? 6;
  const show = options.out === null ? () => {} : progressPrinter(urls.length, options.out ?? process.stdout);
  let next = 0;
  let done = 0;
  let stored = 0;
  let failed = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      try {
        const result = await renderer.render(url);
        if (result.page) stored++;
        else if (result.status >= 400) failed++;
      } catch (error) {
        failed++;
        console.error(`\n[prerender] ${url}:`, error);
      }
      show(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { pages: urls.length, stored, failed, seconds, pagesPerSecond: urls.length / Math.max(seconds, 0.001) };
}
