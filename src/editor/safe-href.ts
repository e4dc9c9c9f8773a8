/**
 * docs/product.md#validation-rules: links in article content keep only the http, https, mailto and tel
 * protocols; any other address becomes a blank one. Same-site paths ("/blog/3") and fragments
 * ("#part-2") have no protocol and are kept, as the server's sanitizer keeps them.
 *
 * Browsers ignore control characters, spaces and a few invisible ones while they read a URL's
 * scheme ("java\tscript:" is still javascript:), so those are removed before the scheme is checked.
 */
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
// C0 controls and space, DEL and C1 controls with NBSP, zero-width characters, line and
// paragraph separators and the byte-order mark.
function isIgnored(code: number): boolean {
  return (
    code <= 0x20 ||
    (code >= 0x7f && code <= 0xa0) ||
    (code >= 0x200b && code <= 0x200d) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0xfeff
  );
}

function withoutIgnored(text: string): string {
  let out = '';
  for (const char of text) if (!isIgnored(char.codePointAt(0)!)) out += char;
  return out;
}

export function toSafeHref(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  const href = raw.trim();
  if (href === '') return '';
  const compact = withoutIgnored(href);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1];
  if (scheme) return ALLOWED_SCHEMES.has(scheme.toLowerCase()) ? href : '';
  // No scheme: a same-site path or fragment is fine; "//host" would leave the site with the
  // page's scheme, and anything else ("example.com", "data") is not an address we can trust.
  if (compact.startsWith('#')) return href;
  if (compact.startsWith('/') && !compact.startsWith('//') && !compact.startsWith('/\\')) return href;
  return '';
}

/**
 * What an admin typed into the link box, made into an address: a bare host ("example.com/x")
 * gets https://, an e-mail address gets mailto:. The result still passes through toSafeHref.
 */
export function normalizeTypedHref(typed: string): string {
  const text = typed.trim();
  if (/^[^\s@/:]+@[^\s@/:]+\.[^\s@/:]+$/.test(text)) return `mailto:${text}`;
  if (/^(www\.)?[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}([/?#]\S*)?$/i.test(text)) return `https://${text}`;
  return toSafeHref(text);
}
