import type { Db } from '../client.ts';

/** The admin's blocked words and phrases (lower case), alphabetical. */
export async function listBlockedWords(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('comment_blocklist').select('word').orderBy('word').execute();
  return rows.map((row) => row.word);
}

/** Replaces the whole list (the editor saves it as one text). */
export async function replaceBlockedWords(db: Db, words: readonly string[]): Promise<void> {
  await db.deleteFrom('comment_blocklist').execute();
  if (words.length === 0) return;
  const now = new Date().toISOString();
  await db
    .insertInto('comment_blocklist')
    .values(words.map((word) => ({ word, created_at: now })))
    .onConflict((oc) => oc.column('word').doNothing())
    .execute();
}

export async function readCommentSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('comment_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Stores the value unless the key already has one; answers the value that is stored. */
export async function ensureCommentSetting(db: Db, key: string, value: string): Promise<string> {
  await db
    .insertInto('comment_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await readCommentSetting(db, key)) ?? value;
}
