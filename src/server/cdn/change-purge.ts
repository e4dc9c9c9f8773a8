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
  /** This process's purges plus its siblings' (`SiblingPurges`): what the admin is shown. */
  status(): CdnPurgeStatus;
  /** This process's purges alone (what it tells its siblings). */
  ownStatus(): CdnPurgeStatus;
  close(): void;
}

/**
 * The other serving processes' purges: each process purges its own changes, so a pending purge is
 * known only where the change was made; the admin's status may be answered by any process.
 */
export interface SiblingPurges {
  /** Hands this process's counts to its siblings (after each change of them). */
  tell(status: CdnPurgeStatus): void;
  /** The latest counts each sibling told. */
  told(): Iterable<CdnPurgeStatus>;
}

/** Counts added up; the latest failure of any of them. */
export function sumPurgeStatuses(own: CdnPurgeStatus, others: Iterable<CdnPurgeStatus>): CdnPurgeStatus {
  const sum = { ...own };
  for (const other of others) {
    sum.sent += other.sent;
    sum.failed += other.failed;
    sum.pending += other.pending;
    sum.givenUp += other.givenUp;
    if (other.lastFailure && (!sum.lastFailure || other.lastFailure.at > sum.lastFailure.at)) sum.lastFailure = other.lastFailure;
  }
  return sum;
}

export function createCdnChangePurge(
  settings: CdnSettings,
  log: (line: string) => void,
  onResult?: (kind: PurgeKind, ok: boolean) => void,
  siblings?: SiblingPurges,
): CdnChangePurge | null {
  if (settings.purgeVarnish.length === 0 || settings.purgeSecret === null) return null;
  const purger = new VarnishPurger({
    caches: settings.purgeVarnish,
    secret: settings.purgeSecret,
    // The save waits this long at most; what is not confirmed by then is pending (status()).
    waitMs: settings.purgeWaitMs,
    log,
    ...(onResult ? { onResult } : {}),
    // Several changes of the counts in one turn (a purge's start, its answer) make one message.
    ...(siblings ? { onStatusChange: () => tellSoon() } : {}),
  });
  let telling = false;
  const tellSoon = () => {
    if (telling || !siblings) return;
    telling = true;
    setImmediate(() => {
      telling = false;
      siblings.tell(purger.status());
    });
  };
  // A process that took over a dead one's place replaces its counts with its own (zeros).
  siblings?.tell(purger.status());
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
    status: () => sumPurgeStatuses(purger.status(), siblings?.told() ?? []),
    ownStatus: () => purger.status(),
    close: () => purger.close(),
  };
}
