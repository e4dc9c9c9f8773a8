import type { Db } from '../db/client.ts';
import { listBlockedWords } from '../db/repositories/comment-blocklist.ts';
import { countCommentsWithTextKey } from '../db/repositories/comments.ts';
import type { CommentValues } from '../../shared/validation/comment.ts';
import {
  countLinks,
  findBlockedWord,
  isHoneypotFilled,
  MAX_LINKS,
  MAX_REPEATS,
  REPEAT_WINDOW_MS,
  textKeyOf,
  type HeldReason,
} from './spam-rules.ts';
import { judgeFormToken } from './spam-token.ts';

/** The body field that carries the form's timing token. */
export const FORM_TOKEN_FIELD = 'form_token';

export interface SpamVerdict {
  /** The first rule the comment tripped, or null for a clean comment. */
  heldReason: HeldReason | null;
  /** Stored with the comment so later repeats of it are found (null: too short to count). */
  textKey: string | null;
}

/**
 * Runs every rule on a valid comment, cheapest first, inside the transaction that stores it (so
 * two identical posts racing each other still count each other).
 */
export async function judgeComment(
  db: Db,
  values: CommentValues,
  body: Record<string, unknown>,
  options: { minFormSeconds: number; now?: number },
): Promise<SpamVerdict> {
  const now = options.now ?? Date.now();
  const textKey = textKeyOf(values.comment);
  const held = (heldReason: HeldReason): SpamVerdict => ({ heldReason, textKey });

  if (isHoneypotFilled(body)) return held('honeypot');
  const token = await judgeFormToken(db, body[FORM_TOKEN_FIELD], options.minFormSeconds, now);
  if (token === 'invalid') return held('bad_token');
  if (token === 'too_fast') return held('too_fast');
  if (countLinks(`${values.username} ${values.comment}`) > MAX_LINKS) return held('links');
  if (findBlockedWord(`${values.username}\n${values.comment}`, await listBlockedWords(db)) !== null) return held('blocklist');
  const since = new Date(now - REPEAT_WINDOW_MS).toISOString();
  if (textKey !== null && (await countCommentsWithTextKey(db, textKey, since)) >= MAX_REPEATS) return held('duplicate');
  return { heldReason: null, textKey };
}
