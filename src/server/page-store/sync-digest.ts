import { createHash } from 'node:crypto';

const NODE_NAMES: Record<string, string> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/**
 * Makes `crypto.subtle.digest` answer SHA-2 digests from this thread, for a render worker only.
 * Astro hashes the inline scripts and styles of every page it renders for the Content-Security-
 * Policy (`generateCspDigest`), four or more per page, through WebCrypto: each digest is a job
 * on libuv's thread pool and a wait for it (38 µs against 7 µs for the same 4 KB here, and much
 * longer when the thread pool is busy), which left a render worker waiting a sixth of its time
 * during the pre-render. The digest is the same; any other algorithm goes to WebCrypto as before.
 */
export function answerDigestsInThread(subtle: SubtleCrypto = globalThis.crypto.subtle): void {
  const original = subtle.digest.bind(subtle);
  const digest = (algorithm: AlgorithmIdentifier, data: BufferSource): Promise<ArrayBuffer> => {
    const name = NODE_NAMES[(typeof algorithm === 'string' ? algorithm : algorithm.name).toUpperCase()];
    if (!name) return original(algorithm, data);
    const bytes = ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data as ArrayBuffer);
    const hash = createHash(name).update(bytes).digest();
    return Promise.resolve(hash.buffer.slice(hash.byteOffset, hash.byteOffset + hash.byteLength) as ArrayBuffer);
  };
  Object.defineProperty(subtle, 'digest', { value: digest, configurable: true, writable: true });
}
