import type { CdnSettings } from '../config.ts';
import type { CdnPurgeReport, CdnPurgeStatus } from '../../shared/api-types.ts';
import { pageKeyTag } from './cache-headers.ts';
import { VarnishPurger, type PurgeKind } from './varnish-purger.ts';

/**
 * What a change does to the shared caches, matching the page store's freshness contract: the hot
 * pages (re-rendered in the store before the save answers) are dropped from every cache by their
 * page keys, and so is every page carrying a tag whose content was taken down (the store never
 * answers those stale either); the save waits for that, at most PURGE_WAIT_MS (then the purge is
 * pending and retried). Every other cached page carrying a changed tag is soft-purged right after
 * (the cache keeps serving it while it fetches the new one), as the store serves its other stale
 * pages while the background queue re-renders them.
 */
export interface CdnChangePurge {
  /** Call after the store invalidated `tagNames` (`takenDown` among them) and re-rendered `hotKeys`. */
  afterChange(tagNames: readonly string[], hotKeys: readonly string[], takenDown?: readonly string[]): Promise<CdnPurgeReport>;
  status(): CdnPurgeStatus;
  close(): void;
}

export function createCdnChangePurge(
  settings: CdnSettings,
  log: (line: string) => void,
  onResult?: (kind: PurgeKind, ok: boolean) => void,
): CdnChangePurge | null {
  if (settings.purgeVarnish.length === 0 || settings.purgeSecret === null) return null;
  const purger = new VarnishPurger({
    caches: settings.purgeVarnish,
    secret: settings.purgeSecret,
    // The save waits this long at most; what is not confirmed by then is pending (status()).
    waitMs: settings.purgeWaitMs,
    log,
    ...(onResult ? { onResult } : {}),
  });
  return {
    async afterChange(tagNames, hotKeys, takenDown = []) {
      const hard = new Set(takenDown);
      const report = await purger.purge('purge', [...hotKeys.map(pageKeyTag), ...hard]);
      void purger.purge(
        'softpurge',
        tagNames.filter((name) => !hard.has(name)),
      );
      return report;
    },
    status: () => purger.status(),
    close: () => purger.close(),
  };
}
