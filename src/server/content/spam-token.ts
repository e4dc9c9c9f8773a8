import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { ensureCommentSetting } from '../db/repositories/comment-blocklist.ts';

/**
 * The comment form's timing token: the time the form was handed out, signed, so a post can tell
 * how long the visitor had the form. The comments island asks for one when it loads (an uncached
 * answer, never part of a stored page). The key lives in SQLite so every serving process signs
 * and checks with the same one.
 */

const SECRET_KEY = 'form_token_secret';
const secrets = new WeakMap<Db, string>();

async function readSecret(db: Db): Promise<string> {
  let secret = secrets.get(db);
  if (secret === undefined) {
    secret = await ensureCommentSetting(db, SECRET_KEY, randomBytes(32).toString('base64url'));
    secrets.set(db, secret);
  }
  return secret;
}

function sign(secret: string, issuedAt: number): string {
  return createHmac('sha256', secret).update(`comment-form:${issuedAt}`).digest('base64url');
}

export async function issueFormToken(db: Db, now = Date.now()): Promise<string> {
  return `${now}.${sign(await readSecret(db), now)}`;
}

export type TokenVerdict = 'absent' | 'invalid' | 'too_fast' | 'expired' | 'ok';

/** How long a form token may be used: too short and it is not a form filled in by a person, too old and it was harvested. */
export interface TokenWindow {
  minSeconds: number;
  maxSeconds: number;
}

/** What the token says about a post made now; a missing token says nothing (plain API clients). */
export async function judgeFormToken(db: Db, token: unknown, window: TokenWindow, now = Date.now()): Promise<TokenVerdict> {
  if (token === undefined || token === null || token === '') return 'absent';
  if (typeof token !== 'string') return 'invalid';
  const match = /^(\d{10,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return 'invalid';
  const issuedAt = Number(match[1]);
  const expected = Buffer.from(sign(await readSecret(db), issuedAt));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  // A token from the future was not made by this server's clock: treat it like a forged one.
  if (issuedAt > now + 60_000) return 'invalid';
  // One token harvested by a bot would otherwise pass the timing rule for ever.
  if (now - issuedAt > window.maxSeconds * 1000) return 'expired';
  return now - issuedAt < window.minSeconds * 1000 ? 'too_fast' : 'ok';
}
