import type { AppContext } from '../context.ts';

/**
 * Every write that changes what readers see ends by calling applyChange with the tags it touched,
 * after its transaction committed. It answers how long the change took to go live, which the
 * admin API returns as `live_ms`.
 *
 * Listeners live on the shared AppContext, not in this module: the HTTP server and Astro's bundle
 * each load their own copy of the module.
 */
export interface ChangeResult {
  live_ms: number;
}

export type ChangeListener = (tags: string[]) => Promise<void>;

export async function applyChange(context: AppContext, tags: string[], startedAt = performance.now()): Promise<ChangeResult> {
  for (const listener of context.changeListeners) await listener(tags);
  return { live_ms: Math.round((performance.now() - startedAt) * 10) / 10 };
}
