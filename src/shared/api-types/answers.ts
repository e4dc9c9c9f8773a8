// What many answers share: errors, the live time of a change and its refresh, the shared caches' purges.
/** Every error answer: a short code, a sentence for people, and the bad fields of a 400. */
export interface ErrorBody {
  error: string;
  message: string;
  fields?: Record<string, string>;
}

/** How long a change took to reach the stored public pages, in milliseconds (docs/product.md#speed-and-freshness). */
export interface LiveTime {
  live_ms: number;
  /**
   * Other pages the change left stale, queued for the background refresh; `hot_elsewhere`: hot
   * pages rendered by another serving process (with several).
   */
  refresh?: { queued: number; hot_elsewhere?: number; cdn?: CdnPurgeReport };
}

/** A save's purge of the shared caches in front (Varnish): only present when PURGE_VARNISH is set. */
export interface CdnPurgeReport {
  /** Caches that dropped the change's hot pages before the save answered. */
  purged: number;
  /** Caches that did not confirm the purge within PURGE_WAIT_MS: it is pending, retried in the background. */
  failed: Array<{ cache: string; error: string }>;
}

/** The shared caches' purges since the server started (GET /api/admin/page-refresh). */
export interface CdnPurgeStatus {
  caches: number;
  sent: number;
  failed: number;
  /** Purges not confirmed yet (a try under way past the save's wait, or waiting for its retry). */
  pending: number;
  /** Purges that failed every retry since the server started. */
  givenUp: number;
  lastFailure: { cache: string; error: string; at: string } | null;
}

/** GET /api/admin/page-refresh (admin): the background refresh's progress since the last change. */
export interface PageRefreshStatus {
  queued: number;
  refreshedSinceLastChange: number;
  seconds: number;
  /** Present when PURGE_VARNISH names caches to purge. */
  cdn?: CdnPurgeStatus;
  /** Pages the render workers rendered since the server started (absent where nothing is stored). */
  renderedByWorkers?: number;
  /** Of those, pages only the nav or the top-viewed list left stale, whose header and footer or list were patched instead (absent where nothing is stored). */
  patchedByWorkers?: number;
  /** Of those patched, pages naming a renamed category, whose new name was written in too (absent where nothing is stored). */
  renamedByWorkers?: number;
}

/** DELETE answers: a confirmation sentence and the live time. */
export interface DeletedAnswer extends LiveTime {
  message: string;
}

/**
 * A line of a long job's streamed answer (application/x-ndjson, one JSON object a line): its
 * progress while it runs, then its answer, or its failure with the status it would have had.
 */
export type ProgressLine =
  | { progress: { done: number; total: number } }
  | { answer: unknown }
  | { failed: { status: number; body: unknown } };
