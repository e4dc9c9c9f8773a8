import { matchingText } from './spam-text.ts';

/**
 * Counting the links in a text: full addresses, "www." ones, HTML anchors and bare domains
 * ("example.com/x", "x.ru"), in the text's matching form (spam-text.ts) so that look-alike and
 * invisible letters hide none. Readers cannot click a bare domain here, but a bot writes it for
 * search engines and for people to copy all the same.
 */

// One match per address: "http://www.x" is one link, not two. A scheme is short: bounding it
// keeps a long run like "a-a-a-a..." from being tried from every letter to its end.
const ADDRESS = /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s<>"']+|\bwww\.[^\s<>"']+|<a\s[^>]*href/g;

// A dotted name not inside a word, an email address or a longer dotted run, then an optional
// path. Labels may be in any script (IDN); the last one, the top-level domain, is letters only,
// so "3.14" and "Fig. 2.1" never match, and "e.g." or "i.e." (one letter) neither.
// A label is at most 63 characters, as in DNS.
const DOTTED_NAME =
  /(?<![\p{L}\p{N}@._/-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(\p{L}{2,63})(?![\p{L}\p{N}@-])(\/[^\s<>"']*)?/gu;

/**
 * Top-level domains that count without a path: the generic ones and the country ones spam
 * favours. Prose runs words together with a dot too ("the end.Next", "done.It"), so country
 * domains that are also short words (it, is, in, me, to, so, at, be, by, no, us, my...) and code
 * file endings (md, py, sh, rs, js) are left out: with a path ("x.it/y") they count all the same.
 */
const COMMON_TLDS = new Set(
  (
    'com net org info biz edu gov xyz top online site club shop store app dev io co ai ru su ' +
    'ua kz cn uk de fr nl pl br jp kr tk ml ga cf gq pw cc tv ly vip win bid loan link click ' +
    'live life pro icu buzz fun space website tech eu ca au es ch se cz ro hu gr pt tr ir vn ' +
    'mx cl za ng pk bd lk ph sg hk tw nz dk fi lt lv ee bg hr sk ge uz kg tj tm mn ' +
    'casino bet poker porn sex xxx adult dating loans cash money'
  ).split(' '),
);

export interface LinkCountOptions {
  /**
   * Any dotted name counts, whatever its top-level domain: for the contact field, where a name
   * with a dot is an address, not a sentence.
   */
  anyDomain?: boolean;
}

/** How many links a text holds, each address once however it is written. */
export function countLinks(text: string, options: LinkCountOptions = {}): number {
  let count = 0;
  // Full addresses first, blanked out so their host is not counted again as a bare domain.
  const rest = matchingText(text).replace(ADDRESS, () => {
    count++;
    return ' ';
  });
  for (const match of rest.matchAll(DOTTED_NAME)) {
    const [, tld, path] = match;
    if (options.anyDomain || path !== undefined || COMMON_TLDS.has(tld!)) count++;
  }
  return count;
}
