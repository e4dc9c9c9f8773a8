import type { AppContext } from '../context.ts';
import { summarisePendingComments } from '../db/repositories/comments.ts';
import { readSettingRows, replaceSettingIf } from '../db/repositories/site-settings.ts';
import { listAdminEmails } from '../db/repositories/users.ts';
import { getSiteSettings } from './site-settings.ts';
import { readAccountPolicy } from '../db/repositories/account-policy.ts';
import { moderationDigestMail } from '../mail/messages.ts';
import { queueMail } from '../mail/outbox.ts';
import type { Wakeable } from '../ports.ts';

/**
 * The admins' mail when comments wait for moderation (the owner's switch in Settings): at most
 * one an hour, and only when a comment arrived for moderation since the last one. The state is
 * one `site_settings` row, `{sent_at, last_id}`, replaced only if unchanged, so of several
 * processes checking at once one queues the digest.
 */
export const DIGEST_INTERVAL_MS = 60 * 60_000;
const STATE_KEY = 'moderation_digest_state';
const CHECK_MS = 60_000;

interface DigestState {
  sent_at: string | null;
  last_id: number;
}

function parseState(raw: string | undefined): DigestState {
  try {
    const value = JSON.parse(raw ?? '') as Partial<DigestState>;
    return {
      sent_at: typeof value.sent_at === 'string' ? value.sent_at : null,
      last_id: typeof value.last_id === 'number' ? value.last_id : 0,
    };
  } catch {
    return { sent_at: null, last_id: 0 };
  }
}

/** Queues the digest to every admin when one is due; answers whether it did. */
export async function sendModerationDigestIfDue(app: AppContext, now = Date.now()): Promise<boolean> {
  if (!app.config.mail) return false;
  if (!(await readAccountPolicy(app.db)).moderation_digest) return false;
  const { site_title } = await getSiteSettings(app);
  return app.db.transaction().execute(async (trx) => {
    const raw = (await readSettingRows(trx))[STATE_KEY];
    const state = parseState(raw);
    if (state.sent_at && now - Date.parse(state.sent_at) < DIGEST_INTERVAL_MS) return false;
    const waiting = await summarisePendingComments(trx, state.last_id);
    if (waiting.fresh === 0) return false;
    const next = JSON.stringify({ sent_at: new Date(now).toISOString(), last_id: waiting.newestId });
    if (!(await replaceSettingIf(trx, STATE_KEY, raw ?? null, next))) return false;
    const link = `${app.config.publicOrigin}/admin/comments-manage`;
    for (const to of await listAdminEmails(trx))
      await queueMail(app, moderationDigestMail({ to, siteTitle: site_title, waiting: waiting.total, link }), trx);
    return true;
  });
}

/** Made before the app context (which holds it, so a held comment in Astro's bundle wakes it), started with it. */
export interface ModerationDigest extends Wakeable {
  /** Looks every minute (with mail on), and at once. */
  start(app: AppContext): void;
  stop(): Promise<void>;
}

/**
 * The lead process's check (comments are posted in any process, and the digest's state is shared);
 * a comment held in this process wakes it at once.
 */
export function createModerationDigest(log: (line: string) => void): ModerationDigest {
  let check: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  return {
    start(app) {
      if (!app.config.mail) return;
      check = () => {
        running = running
          .then(() => sendModerationDigestIfDue(app))
          .catch((error: unknown) => log(`[mail] the moderation digest check failed: ${String(error)}`));
      };
      timer = setInterval(check, CHECK_MS);
      timer.unref();
      check();
    },
    wake() {
      check?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      check = null;
      await running;
    },
  };
}
