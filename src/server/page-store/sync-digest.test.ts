import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { answerDigestsInThread } from './sync-digest.ts';

const subtle = globalThis.crypto.subtle;

afterEach(() => {
  // The installed digest is an own property of the instance: removing it restores WebCrypto's.
  delete (subtle as { digest?: unknown }).digest;
});

const hex = (buffer: ArrayBuffer) => Buffer.from(buffer).toString('hex');

describe('answerDigestsInThread', () => {
  it('answers SHA-2 digests in the same microtask turn, without a thread-pool job', async () => {
    const data = new TextEncoder().encode('<script>console.log(1)</script>');
    let settled = false;
    answerDigestsInThread(subtle);
    void subtle.digest('SHA-256', data).then(() => (settled = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toBe(true);
  });

  it('gives the digests WebCrypto gives, for views at an offset and whole buffers', async () => {
    const text = 'x'.repeat(4380) + 'é';
    const bytes = new TextEncoder().encode(`padding${text}`);
    const view = bytes.subarray('padding'.length);
    const expected: Record<string, string> = {};
    for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512', 'SHA-1'])
      expected[algorithm] = hex(await subtle.digest(algorithm, view));
    answerDigestsInThread(subtle);
    for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512', 'SHA-1']) {
      expect(hex(await subtle.digest(algorithm, view)), algorithm).toBe(expected[algorithm]);
      expect(hex(await subtle.digest({ name: algorithm }, view.slice().buffer)), algorithm).toBe(expected[algorithm]);
    }
    expect(expected['SHA-256']).toBe(createHash('sha256').update(text).digest('hex'));
  });
});
