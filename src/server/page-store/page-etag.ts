import crypto from 'node:crypto';

/**
 * A body's ETag: its hash, so a body read back from the file can be checked against it. On its
 * own so the store's file (which checks bodies) and the stored-page shapes (which make them) share
 * it without importing each other.
 */
export function etagOf(body: Buffer): string {
  return `"${crypto.createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}
