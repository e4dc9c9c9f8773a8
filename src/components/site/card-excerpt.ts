/**
 * The text a card shows under its title: the start of the article (the list query takes its first
 * EXCERPT_CHARS characters, src/server/db/repositories/blog-lists.ts), with an ellipsis when it
 * was cut. A "Read more" the writer typed at the end of a short article is dropped: the card's own
 * Read More button sits right under it.
 */

export const EXCERPT_CHARS = 220;

// "Read more", "Continue reading", "… read more »", "[Read more]", "(keep reading...)" at the very
// end, standing on its own after a sentence or a dash ("students who read more" is the text's own).
const TRAILING_READ_MORE =
  /(^|[.!?…:;|)\]\-–—]\s*)[([{]?\s*(?:\.{3}|…)?\s*(?:read\s+more|continue\s+reading|keep\s+reading|read\s+the\s+rest)\s*(?:\.{3}|…|[.:!»›>→)\]}])*\s*$/iu;
// What a dropped "Read more" leaves hanging: a dash, a bar, a colon, a comma.
const HANGING_PUNCTUATION = /[\s\-–—|:,;]+$/u;

export function cardExcerpt(text: string): string {
  const cut = text.length >= EXCERPT_CHARS;
  const kept = text.replace(TRAILING_READ_MORE, '$1');
  if (kept === text) return cut ? `${text.trimEnd()}…` : text;
  const trimmed = kept.replace(HANGING_PUNCTUATION, '');
  return cut && trimmed && !/[.!?…]$/u.test(trimmed) ? `${trimmed}…` : trimmed;
}
