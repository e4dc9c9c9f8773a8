import { noteSiblingWriteTrouble, shareWriteTroubles, writeTroubles, type WriteTrouble } from '../db/write-health.ts';
import type { CdnPurgeStatus } from '../../shared/api-types.ts';
import { createSiblingChannel, type SiblingChannel, type SiblingNews } from './sibling-news.ts';

/**
 * What every serving process must know of its siblings: a write that failed for want of storage
 * (every process's /healthz reports it) and each sibling's pending purges (the admin sees the sum).
 * `send`: the channel to the cluster's first process (null alone); `ownPurges`: this process's.
 */
export function connectSiblings(
  send: ((message: SiblingNews) => void) | null,
  ownPurges: () => CdnPurgeStatus | null,
): { siblings: SiblingChannel; siblingPurges: Map<number, CdnPurgeStatus>; disconnect: () => void } {
  const siblings = createSiblingChannel(send);
  shareWriteTroubles(send ? (file, trouble) => siblings.tell('write-trouble', { file, trouble }) : null);
  siblings.listen('write-trouble', (payload) => {
    const { file, trouble } = payload as { file: string; trouble: WriteTrouble | null };
    noteSiblingWriteTrouble(file, trouble);
  });
  const siblingPurges = new Map<number, CdnPurgeStatus>();
  siblings.listen('purge-status', (payload, from) => siblingPurges.set(from, payload as CdnPurgeStatus));
  // A process started in a dead one's place asks what its siblings know.
  siblings.listen('hello', () => {
    for (const [file, trouble] of writeTroubles()) siblings.tell('write-trouble', { file, trouble });
    const purges = ownPurges();
    if (purges) siblings.tell('purge-status', purges);
  });
  return { siblings, siblingPurges, disconnect: () => shareWriteTroubles(null) };
}
