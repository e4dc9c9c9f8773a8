/**
 * Turns whatever a reader typed into a safe FTS5 MATCH expression: every word becomes a quoted
 * prefix term, all must match. Quotes, operators (AND, OR, NOT, NEAR), parentheses and lone
 * symbols are never passed through, so no input can raise an FTS5 syntax error.
 * Returns null when the text has no searchable word.
 */
export function buildFtsQuery(text: string): string | null {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length === 0) return null;
  const unique = [...new Set(words)].slice(0, 12).map((w) => w.slice(0, 64));
  return unique.map((w) => `"${w}"*`).join(' ');
}

/** SPEC.md section 5: blank or whitespace-only search text is ignored. */
export function normalizeSearchText(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.replace(/\s+/g, ' ').trim().slice(0, 200);
  return text === '' ? null : text;
}
