import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { VarnishPurger } from './varnish-purger.ts';
import { HANG_GUARD_MS, untilTrue } from '../../../tests/support/wait.ts';

const SECRET = 'test-purge-secret-0123456789abcdef0123456789';
/**
 * For the cases about what a cache answered, not about the wait: a busy machine may take longer
 * than the 250 ms a save waits for a local answer, which is the other cases' subject.
 */
const PATIENT = { waitMs: HANG_GUARD_MS, timeoutMs: HANG_GUARD_MS };

/**
 * An HTTP server standing where Varnish would: records each purge, fails the first `failures`.
 * `hold()` keeps the next answers back (a cache that accepts and does not answer) until `release()`.
 */
async function purgeTarget(failures: number) {
  const seen: Array<{ method: string; headers: http.IncomingHttpHeaders }> = [];
  let held: Array<() => void> | null = null;
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', headers: req.headers });
    const answer = () => {
      res.statusCode = seen.length <= failures ? 503 : 200;
      res.end();
    };
    if (held) held.push(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  return {
    url,
    seen,
    hold: () => (held = []),
    release: () => {
      const answers = held ?? [];
      held = null;
      answers.forEach((answer) => answer());
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('VarnishPurger', () => {
  it('sends PURGE with the keys in the xkey-purge or xkey-softpurge header, and the secret', async () => {
    const target = await purgeTarget(0);
    cleanups.push(target.close);
    const purger = new VarnishPurger({ caches: [target.url], secret: SECRET, log: () => undefined, ...PATIENT });
    cleanups.push(() => purger.close());
    expect(await purger.purge('purge', ['page-a', 'page-b'])).toEqual({ purged: 1, failed: [] });
    await purger.purge('softpurge', ['blog:1']);
    expect(target.seen.map((s) => [s.method, s.headers['xkey-purge'] ?? s.headers['xkey-softpurge']])).toEqual([
      ['PURGE', 'page-a page-b'],
      ['PURGE', 'blog:1'],
    ]);
    expect(target.seen.map((s) => s.headers['x-purge-secret'])).toEqual([SECRET, SECRET]);
    expect(purger.status()).toMatchObject({ caches: 1, sent: 2, failed: 0, pending: 0, givenUp: 0, lastFailure: null });
  });

  it('reports a failed purge at once, retries it with backoff and logs until it goes through', async () => {
    const target = await purgeTarget(2);
    cleanups.push(target.close);
    const lines: string[] = [];
    const purger = new VarnishPurger({
      caches: [target.url],
      secret: SECRET,
      log: (line) => lines.push(line),
      retryDelaysMs: [5, 5, 5],
      ...PATIENT,
    });
    cleanups.push(() => purger.close());
    const outcome = await purger.purge('purge', ['page-a']);
    expect(outcome).toEqual({ purged: 0, failed: [{ cache: target.url.origin, error: 'HTTP 503' }] });
    expect(purger.status().pending).toBe(1);
    await untilTrue(() => target.seen.length === 3 && purger.status().pending === 0, 'the retried purge to go through');
    expect(purger.status()).toMatchObject({ sent: 1, failed: 2, givenUp: 0 });
    expect(lines.at(-1)).toMatch(/went through on try 3/);
  });

  it('gives up after its last retry on a cache that never answers, and says so', async () => {
    const target = await purgeTarget(0);
    await target.close(); // nothing listens on that port any more
    const lines: string[] = [];
    const purger = new VarnishPurger({
      caches: [target.url],
      secret: SECRET,
      log: (line) => lines.push(line),
      retryDelaysMs: [5],
      ...PATIENT,
    });
    cleanups.push(() => purger.close());
    const outcome = await purger.purge('softpurge', ['nav']);
    expect(outcome.failed[0]!.error).toMatch(/ECONNREFUSED/);
    await untilTrue(() => purger.status().givenUp === 1, 'the purge to be given up');
    expect(purger.status()).toMatchObject({ sent: 0, failed: 2, pending: 0 });
    expect(lines.at(-1)).toMatch(/gave up softpurge of 1 keys/);
  });

  it('answers without waiting for a cache that accepts and does not answer; the purge stays pending until it does', async () => {
    const target = await purgeTarget(0);
    cleanups.push(target.close);
    target.hold();
    // The try itself may take a minute: only the caller's wait is short.
    const purger = new VarnishPurger({
      caches: [target.url],
      secret: SECRET,
      log: () => undefined,
      waitMs: 50,
      timeoutMs: 60_000,
    });
    cleanups.push(() => purger.close());
    const outcome = await purger.purge('purge', ['page-a']);
    expect(outcome).toEqual({ purged: 0, failed: [{ cache: target.url.origin, error: 'no answer within 50 ms, still trying' }] });
    expect(purger.status()).toMatchObject({ sent: 0, failed: 0, pending: 1 });
    await untilTrue(() => target.seen.length === 1, 'the purge to reach the cache');
    target.release();
    await untilTrue(() => purger.status().pending === 0, 'no purge pending');
    expect(purger.status()).toMatchObject({ sent: 1, failed: 0, givenUp: 0 });
  });

  it('abandons a try that gets no answer, and retries it until the cache answers again', async () => {
    const target = await purgeTarget(0);
    cleanups.push(target.close);
    target.hold();
    const lines: string[] = [];
    const purger = new VarnishPurger({
      caches: [target.url],
      secret: SECRET,
      log: (line) => lines.push(line),
      waitMs: 0,
      timeoutMs: 100,
      // Many: on a busy machine a released try may still miss 100 ms now and then.
      retryDelaysMs: Array.from({ length: 100 }, () => 5),
    });
    cleanups.push(() => purger.close());
    await purger.purge('purge', ['page-a']);
    await untilTrue(() => lines.some((line) => /no answer in 100 ms/.test(line)), 'the unanswered purge to be logged');
    expect(purger.status().pending).toBe(1);
    target.release();
    await untilTrue(() => purger.status().pending === 0, 'no purge pending');
    expect(purger.status()).toMatchObject({ sent: 1, givenUp: 0 });
    expect(lines.at(-1)).toMatch(/went through on try \d+/);
  });
});
