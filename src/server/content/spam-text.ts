import unhomoglyph from 'unhomoglyph';

/**
 * The form of a comment the spam rules look at, so that a word or address cannot be disguised
 * by characters that look the same or show nothing. Only the matching uses it: the comment is
 * stored and shown exactly as written.
 */

// Characters that show nothing (zero-width spaces and joiners, soft hyphen, word joiner,
// invisible operators, byte-order mark, variation selectors, Hangul fillers, tags...).
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const MARKS = /\p{M}/gu;
// Full stops that browsers take as the dot of an address ("example。com"); NFKC has already
// turned the full-width and half-width forms into these two.
const IDEOGRAPHIC_STOPS = /[\u3002\uFF61]/g;
const NON_ASCII = /[^\p{ASCII}]/gu;

// One look-up per distinct character: the library's own pattern is large. Kept to a bound, so a
// post of every code point there is cannot make it grow without end.
const FOLDS_KEPT = 20_000;
const folded = new Map<string, string>();
function foldLookAlike(char: string): string {
  let prototype = folded.get(char);
  if (prototype === undefined) {
    prototype = unhomoglyph(char);
    if (folded.size >= FOLDS_KEPT) folded.clear();
    folded.set(char, prototype);
  }
  return prototype;
}

/**
 * NFKC (full-width and mathematical letters, ligatures), invisible characters removed, accents
 * and dots taken off (NFKD without marks: "ċ" is "c"), letters that look like Latin ones folded
 * to them by Unicode's confusables table (TR39: Cyrillic "с", Greek "ο"), lower case, spacing
 * collapsed. ASCII is never folded, so "0", "1", "I" and "m" keep their meaning. Text written
 * wholly in another script comes out as a string of its own that no Latin word or address
 * matches unless it really looks like one.
 */
export function matchingText(text: string): string {
  const visible = text.normalize('NFKC').replace(INVISIBLE, '').replace(IDEOGRAPHIC_STOPS, '.');
  const bare = visible.normalize('NFKD').replace(MARKS, '');
  // Folded before lower case: a Greek capital Ν is an N (its lower case ν would read as v).
  return bare.replace(NON_ASCII, foldLookAlike).toLowerCase().normalize('NFKD').replace(MARKS, '').replace(/\s+/g, ' ').trim();
}

// Han, kana and other unspaced scripts: each character is a word of its own, so "one word more"
// means the same there as in spaced text.
const WORD =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}])[\p{L}\p{N}])+/gu;

/** The words of a matching text, punctuation and spacing left out. */
export function wordsOf(matching: string): string[] {
  return matching.match(WORD) ?? [];
}
