import type { Db } from '../db/client.ts';
import { countCommentsWithTextKey, listNewestCommentTexts } from '../db/repositories/comments.ts';
import { MAX_REPEATS, REPEAT_WINDOW_MS } from './spam-rules.ts';
import { areNearDuplicates } from './spam-similarity.ts';
import { matchingText, wordsOf } from './spam-text.ts';

/**
 * The repeat rule: a text (of MIN_REPEAT_LENGTH letters or more) is held when it, or a near copy
 * of it (spam-similarity.ts), was posted MAX_REPEATS times in the window on any article, or once
 * already on the same article. Exact copies are counted through their stored key over the whole
 * window; near copies among the newest NEAR_COPY_SCAN comments, which bounds the work of a post.
 */

/** How many of the newest comments a post is compared with, word by word. */
export const NEAR_COPY_SCAN = 500;

// The words of comments already compared, by text: every post compares with the same recent
// comments, and their folding is the costly part. Oldest entries go first.
const WORDS_KEPT = 2 * NEAR_COPY_SCAN;
const wordsByText = new Map<string, string[]>();
function wordsOfComment(text: string): string[] {
  let words = wordsByText.get(text);
  if (words === undefined) {
    words = wordsOf(matchingText(text));
    if (wordsByText.size >= WORDS_KEPT) wordsByText.delete(wordsByText.keys().next().value!);
    wordsByText.set(text, words);
  }
  return words;
}

export interface RepeatQuestion {
  blogId: number;
  comment: string;
  /** textKeyOf(comment): null for a text too short to count. */
  textKey: string | null;
  now: number;
}

/** Whether the comment repeats earlier ones enough to be held. */
export async function isRepeated(db: Db, question: RepeatQuestion): Promise<boolean> {
  const { textKey } = question;
  if (textKey === null) return false;
  const since = new Date(question.now - REPEAT_WINDOW_MS).toISOString();
  const exact = await countCommentsWithTextKey(db, textKey, since);
  if (exact >= MAX_REPEATS) return true;

  const words = wordsOf(matchingText(question.comment));
  let anywhere = exact;
  for (const row of await listNewestCommentTexts(db, NEAR_COPY_SCAN)) {
    if (row.created_at < since) break;
    const same = row.text_key === textKey;
    if (!same && !areNearDuplicates(words, wordsOfComment(row.comment))) continue;
    if (row.blog_id === question.blogId) return true;
    // Exact copies are in `exact` already.
    if (!same && ++anywhere >= MAX_REPEATS) return true;
  }
  return false;
}
