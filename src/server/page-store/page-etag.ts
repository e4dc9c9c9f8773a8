import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * What a copy read back from the file is checked against: damage inside a blob is invisible to
 * SQLite. CRC-32 finds any burst of flipped bits a disk or a stray write leaves, at a fraction of
 * a hash's cost on every page read from the file; a forged body is no concern in our own cache.
 * Eight hex digits, so it has a fixed place at the end of an ETag.
 */
export function checksumOf(bytes: Buffer): string {
  return zlib.crc32(bytes).toString(16).padStart(8, '0');
}

/**
 * A body's ETag: a validator no two versions of a page share (part of its SHA-1), ending with the
 * body's checksum, so a body read back from the file is checked against its ETag without hashing
 * it again. On its own so the store's file (which checks bodies) and the stored-page shapes
 * (which make them) share it without importing each other.
 */
export function etagOf(body: Buffer): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 16)}${checksumOf(body)}"`;
}

/** Whether the body still has the checksum its ETag ends with. */
export function bodyMatchesEtag(body: Buffer, etag: string): boolean {
  return etag.length === 26 && etag.endsWith(`${checksumOf(body)}"`);
}
