import crypto from 'node:crypto';
import { sharedPageString } from './shared-strings.ts';

// The build's Content-Security-Policy narrowed to one document. Done where a page is rendered (the
// render worker, once per render, stored with the page), never per request on the serving thread.

const HASH_SOURCE = /'(sha256|sha384|sha512)-[A-Za-z0-9+/=]+'/g;
export const HAS_HASH = /'(sha256|sha384|sha512)-/;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
const INLINE_STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi;

/**
 * A hash source per inline text, kept: every page of a build runs the same few inline scripts and
 * styles, so a render would otherwise hash the same bytes again each time. Bounded: past `HASHES_KEPT`
 * texts, the kept ones are dropped and hashing starts over.
 */
const HASHES_KEPT = 512;
const hashes = new Map<string, string>();

/** `text`'s bytes are UTF-8 as written (`encoding` utf8) or as read one byte a character (latin1). */
function hashSource(algorithm: string, text: string, encoding: 'utf8' | 'latin1'): string {
  const key = `${algorithm}${encoding}${text}`;
  let source = hashes.get(key);
  if (source === undefined) {
    source = `'${algorithm}-${crypto.createHash(algorithm).update(text, encoding).digest('base64')}'`;
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hashes.set(key, source);
  }
  return source;
}

/** Hash sources of what a document runs or applies inline: scripts without src (data blocks excluded) and style elements. */
function inlineHashes(html: string, algorithm: string, encoding: 'utf8' | 'latin1'): Set<string> {
  const found = new Set<string>();
  for (const [, attributes, text] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(attributes!)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes!)?.[1] ?? '';
    if (type !== '' && type !== 'module' && !/javascript|ecmascript/i.test(type)) continue;
    found.add(hashSource(algorithm, text!, encoding));
  }
  for (const [, text] of html.matchAll(INLINE_STYLE)) found.add(hashSource(algorithm, text!, encoding));
  return found;
}

/**
 * The build's page policy narrowed to one document: Astro names every inline script and style of
 * the whole build (16 hashes, about 1 KB), a page needs its own few. Only hash sources are
 * dropped, never added, so the result is as strict or stricter; a directive left empty becomes
 * 'none', which is what an empty source list means. Fewer bytes on every page answer.
 */
export function narrowPolicy(policy: string, html: string): string {
  return narrowTo(policy, html, 'utf8');
}

/** The narrowed policies made, by build policy and the hash sources a page has (bounded like the hashes). */
const narrowed = new Map<string, string>();

function narrowTo(policy: string, html: string, encoding: 'utf8' | 'latin1'): string {
  const algorithm = HAS_HASH.exec(policy)?.[1];
  if (!algorithm) return policy;
  const present = inlineHashes(html, algorithm, encoding);
  const key = `${[...present].join(' ')}\n${policy}`;
  const known = narrowed.get(key);
  if (known !== undefined) return known;
  const result = sharedPageString(
    policy
      .split(';')
      .map((directive) => {
        const kept = directive
          .replace(HASH_SOURCE, (source) => (present.has(source) ? source : ''))
          .replace(/\s+/g, ' ')
          .trim();
        return kept !== '' && !kept.includes(' ') && directive.trim() !== kept ? `${kept} 'none'` : kept;
      })
      .filter(Boolean)
      .join(';'),
  );
  if (narrowed.size >= HASHES_KEPT) narrowed.clear();
  narrowed.set(key, result);
  return result;
}

/**
 * A rendered answer's policy narrowed to its document, in its headers: what the page is stored
 * with and every reader gets. Left as it is for anything but a whole HTML document.
 */
export function narrowAnswerPolicy(headers: Record<string, string>, body: Buffer): void {
  const policy = headers['content-security-policy'];
  const type = headers['content-type'];
  if (!policy || !type || !isHtmlType(type) || !HAS_HASH.test(policy)) return;
  // Read a byte a character: only ASCII delimiters are looked for, and each inline text is hashed
  // as the same bytes, so the result is the UTF-8 reading's without decoding it (a fifth of the cost).
  const html = body.toString('latin1');
  if (isWholeDocument(html)) headers['content-security-policy'] = narrowTo(policy, html, 'latin1');
}

/** Whether a Content-Type is HTML's. */
export function isHtmlType(contentType: string): boolean {
  return /^text\/html\s*(;|$)/i.test(contentType);
}

/** Whether the body is a whole HTML document: only then does it name every inline script and style it runs. */
export function isWholeDocument(html: string): boolean {
  return /<\/html>\s*$/i.test(html);
}
