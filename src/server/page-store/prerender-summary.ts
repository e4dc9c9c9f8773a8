// What a pre-render reports: kept apart from prerender.ts so the cluster's first process, which
// only prints the sum, loads none of the store.

export interface PrerenderSummary {
  /** Pages rendered (or found fresh already). */
  pages: number;
  stored: number;
  failed: number;
  /** Pages not rendered because the store reached its disk budget: each is rendered when first asked. */
  left: number;
  seconds: number;
  /** Stopped before the end (the server closing): the next start carries on. */
  stopped: boolean;
}

/**
 * The line the operator reads once the pre-render is done, from each process's share. A store
 * that reached its budget says so, with the setting that raises it.
 */
export function describePrerender(shares: PrerenderSummary[], budgetMb: number): string {
  const sum = (field: 'pages' | 'failed' | 'left') => shares.reduce((total, share) => total + share[field], 0);
  const [pages, failed, left] = [sum('pages'), sum('failed'), sum('left')];
  const seconds = Math.max(...shares.map((share) => share.seconds));
  return (
    `Pre-rendered ${pages} pages in ${seconds.toFixed(1)} s (${(pages / Math.max(seconds, 0.001)).toFixed(0)} pages/s)` +
    (shares.length > 1 ? ` by ${shares.length} processes` : '') +
    (failed ? `, ${failed} failed` : '') +
    (left
      ? `; the page store reached its disk budget (PAGE_STORE_MAX_MB=${budgetMb}), so ${left} more are rendered when first asked`
      : '')
  );
}
