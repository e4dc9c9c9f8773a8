import { noteSiblingWriteTrouble, shareWriteTroubles, writeTroubles, type WriteTrouble } from '../db/write-health.ts';
import type { CdnPurgeStatus } from '../../shared/api-types.ts';
import type { TagBump } from '../page-store/store-file.ts';
import { createSiblingChannel, type SiblingChannel, type SiblingNews } from './sibling-news.ts';

/**
 * How long a change waits for its siblings to take the tag versions its store file could not
 * carry: far beyond an IPC round trip on a loaded machine, short enough that a sibling that
 * stopped answering does not hold a save for long.
 */
const BUMPS_ACK_MS = 5000;

/**
 * What every serving process must know of its siblings: a write that failed for want of storage
 * (every process's /healthz reports it), each sibling's pending purges (the admin sees the sum), and
 * a change's tag versions that the page store's file could not take (`tellBumps`: resolves once
 * every sibling applied them with `onBumps`, or `BUMPS_ACK_MS` passed, which is logged).
 * `send`: the channel to the cluster's first process (null alone); `ownPurges`: this process's.
 */
export function connectSiblings(
  send: ((message: SiblingNews) => void) | null,
  here: {
    ownPurges: () => CdnPurgeStatus | null;
    onBumps: (bumps: TagBump[]) => void;
    log: (line: string) => void;
  },
): {
  siblings: SiblingChannel;
  siblingPurges: Map<number, CdnPurgeStatus>;
  tellBumps: (bumps: TagBump[]) => Promise<void>;
  disconnect: () => void;
} {
  const { ownPurges, onBumps, log } = here;
  const siblings = createSiblingChannel(send);
  siblings.listen('tag-bumps', (payload) => onBumps(payload as TagBump[]));
  shareWriteTroubles(send ? (file, trouble) => siblings.tell('write-trouble', { file, trouble }) : null);
  siblings.listen('write-trouble', (payload) => {
    const { file, trouble } = payload as { file: string; trouble: WriteTrouble | null };
    noteSiblingWriteTrouble(file, trouble);
  });
  const siblingPurges = new Map<number, CdnPurgeStatus>();
  siblings.listen('purge-status', (payload, from) => siblingPurges.set(from, payload as CdnPurgeStatus));
  // A process started in a dead one's place asks what its siblings know; the purges the dead one
  // had pending died with it.
  siblings.listen('hello', (_payload, from) => {
    siblingPurges.delete(from);
    for (const [file, trouble] of writeTroubles()) siblings.tell('write-trouble', { file, trouble });
    const purges = ownPurges();
    if (purges) siblings.tell('purge-status', purges);
  });
  return {
    siblings,
    siblingPurges,
    tellBumps: async (bumps) => {
      if (await siblings.ask('tag-bumps', bumps, BUMPS_ACK_MS)) return;
      log(`Page store: a sibling process did not confirm a change within ${BUMPS_ACK_MS} ms; answering anyway`);
    },
    disconnect: () => shareWriteTroubles(null),
  };
}
