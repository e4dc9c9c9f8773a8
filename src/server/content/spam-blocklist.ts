import type { Db } from '../db/client.ts';
import { listBlockedWords, replaceBlockedWords } from '../db/repositories/comment-blocklist.ts';
import { throwIfInvalid } from '../errors.ts';
import { validateBlocklistInput } from '../../shared/validation/moderation.ts';
import type { BlocklistAnswer } from '../../shared/api-types.ts';

/** The admin's word blocklist: a comment containing one of them is held for moderation. */

export async function getBlocklist(db: Db): Promise<BlocklistAnswer> {
  return { words: await listBlockedWords(db) };
}

/** Replaces the list as a whole; it applies to comments posted from now on. */
export async function saveBlocklist(db: Db, body: Record<string, unknown>): Promise<BlocklistAnswer> {
  const { words } = throwIfInvalid(validateBlocklistInput(body), 'Please check the blocked words.');
  await db.transaction().execute((trx) => replaceBlockedWords(trx, words));
  return { words: await listBlockedWords(db), message: 'Blocked words saved' };
}
