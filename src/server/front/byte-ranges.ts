/** One satisfiable byte range, both ends included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a Range header against a representation of `size` bytes (RFC 9110 section 14).
 * Only one range is served: a list of ranges, another unit or a malformed header is ignored
 * (null: send the whole file, as the RFC allows); a well-formed range that starts past the end
 * is 'unsatisfiable' (416).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  const from = first === '' ? null : Number(first);
  const to = last === '' ? null : Number(last);
  if ((from !== null && !Number.isSafeInteger(from)) || (to !== null && !Number.isSafeInteger(to))) return null;
  if (from === null) {
    // bytes=-n: the last n bytes.
    if (to === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - to!), end: size - 1 };
  }
  if (to !== null && to < from) return null;
  if (from >= size) return 'unsatisfiable';
  return { start: from, end: to === null ? size - 1 : Math.min(to, size - 1) };
}

/** Entity tags of an If-None-Match or If-Range list, `*` included. */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** If-None-Match uses the weak comparison: W/"x" matches "x". */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return tagsOf(header).some((tag) => tag === '*' || opaque(tag) === opaque(etag));
}

/**
 * If-Range: the range is served only when the client's copy is this exact representation.
 * An entity tag must match strongly; a date must equal Last-Modified (whole seconds) and that
 * time must be at least a second old, else two writes in one second would look the same.
 */
export function ifRangeHolds(header: string | undefined, etag: string, mtimeMs: number, now = Date.now()): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return !value.startsWith('W/') && !etag.startsWith('W/') && value === etag;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return false;
  const modified = Math.floor(mtimeMs / 1000) * 1000;
  return date === modified && now - mtimeMs >= 1000;
}
