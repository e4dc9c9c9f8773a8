import type { Db } from '../db/client.ts';
import { listBlockedWords } from '../db/repositories/comment-blocklist.ts';
import { countHeldComments, deleteOldestHeldComments } from '../db/repositories/comments.ts';
import type { CommentValues } from '../../shared/validation/comment.ts';
import { countLinks } from './spam-links.ts';
import { isRepeated } from './spam-repeats.ts';
import { findBlockedWord, isHoneypotFilled, MAX_LINKS, textKeyOf, type HeldReason } from './spam-rules.ts';
import { judgeFormToken } from './spam-token.ts';

/** The body field that carries the form's timing token. */
export const FORM_TOKEN_FIELD = 'form_token';

export interface SpamVerdict {
  /** The first rule the comment tripped, or null for a clean comment. */
  heldReason: HeldReason | null;
  /** Stored with the comment so later repeats of it are found (null: too short to count). */
  textKey: string | null;
}

export interface SpamOptions {
  minFormSeconds: number;
  /** A form token older than this is held like a forged one (COMMENT_FORM_TOKEN_MAX_HOURS). */
  maxFormSeconds: number;
  /** A post without a form token is held (COMMENT_REQUIRE_FORM_TOKEN, on unless turned off). */
  requireFormToken: boolean;
  now?: number;
}

/**
 * Runs every rule on a valid comment, cheapest first, inside the transaction that stores it (so
 * two identical posts racing each other still count each other).
 */
export async function judgeComment(
  db: Db,
  comment: { blogId: number; values: CommentValues; body: Record<string, unknown> },
  options: SpamOptions,
): Promise<SpamVerdict> {
  const { values, body } = comment;
  const now = options.now ?? Date.now();
  const textKey = textKeyOf(values.comment);
  const held = (heldReason: HeldReason): SpamVerdict => ({ heldReason, textKey });

  if (isHoneypotFilled(body)) return held('honeypot');
  const token = await judgeFormToken(
    db,
    body[FORM_TOKEN_FIELD],
    { minSeconds: options.minFormSeconds, maxSeconds: options.maxFormSeconds },
    now,
  );
  if (token === 'absent' && options.requireFormToken) return held('no_token');
  if (token === 'invalid') return held('bad_token');
  if (token === 'expired') return held('old_token');
  if (token === 'too_fast') return held('too_fast');
  // The contact field is not prose: any name with a dot in it there is an address.
  const links = countLinks(`${values.username}\n${values.comment}`) + countLinks(values.contact ?? '', { anyDomain: true });
  if (links > MAX_LINKS) return held('links');
  const everything = `${values.username}\n${values.comment}\n${values.contact ?? ''}`;
  if (findBlockedWord(everything, await listBlockedWords(db)) !== null) return held('blocklist');
  if (await isRepeated(db, { blogId: comment.blogId, comment: values.comment, textKey, now })) return held('duplicate');
  return { heldReason: null, textKey };
}

/**
 * Keeps the comments readers never see (held ones and those marked as spam) to `max`, after a
 * comment was held: a flood of spam cannot fill the disk or bury the moderation queue. The
 * oldest go first, those already marked as spam before those awaiting a moderator; approved
 * comments are never touched. Answers how many went.
 */
export async function pruneHeldComments(db: Db, max: number): Promise<number> {
  const excess = (await countHeldComments(db)) - max;
  return excess > 0 ? deleteOldestHeldComments(db, excess) : 0;
}
