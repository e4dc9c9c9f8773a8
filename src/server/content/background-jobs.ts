import type { AppBase, AppContext } from '../context.ts';
import { createMailSending } from '../mail/start.ts';
import { createModerationDigest } from './moderation-digest.ts';
import { createPublishScheduler } from './publish-scheduler.ts';

/** The background jobs a write wakes, as the app context holds them. */
export type BackgroundParts = Pick<AppContext, 'publishScheduler' | 'mailSender' | 'moderationDigest'>;

/**
 * The front server's background jobs: the publish scheduler in every serving process, the mail
 * sender and the moderation digest in the lead one only (one sender for all processes, where the
 * other once-only work runs; the others only queue). Made before the app context, which holds
 * them (`parts`) so that a save in Astro's bundle wakes this process's instances; `start` once the
 * context is set, after the page cache is installed: a schedule that fell due while the server was
 * down publishes then, its pages fresh.
 */
export function createBackgroundJobs(
  base: AppBase,
  lead: boolean,
  log: (line: string) => void,
): { parts: BackgroundParts; start: (context: AppContext) => void; stop: () => Promise<void> } {
  const scheduler = createPublishScheduler(log);
  const mail = lead ? createMailSending(base, log) : null;
  const digest = lead ? createModerationDigest(log) : null;
  return {
    parts: {
      publishScheduler: scheduler,
      ...(mail ? { mailSender: mail } : {}),
      ...(digest ? { moderationDigest: digest } : {}),
    },
    start(context) {
      scheduler.start(context);
      mail?.start();
      digest?.start(context);
    },
    async stop() {
      await scheduler.stop();
      await digest?.stop();
      await mail?.stop();
    },
  };
}
