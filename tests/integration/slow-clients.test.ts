import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';

/**
 * Slow clients (issue "Hardening", operations): a slowloris client that sends its headers one byte
 * a second is cut off once the server's 10 s header timeout has passed, while everyone else keeps
 * getting answers.
 */

const HEADERS_TIMEOUT_MS = 10_000;
const SLOW_CLIENTS = 20;

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  // The start-up pre-render competes for the CPU; let it finish so reader times mean something.
  await untilPrerendered(server, 300_000);
}, 360_000); // the start-up pre-render may take minutes on a loaded machine

afterAll(async () => {
  await server?.stop();
});

interface SlowClient {
  /** Milliseconds from connecting until the server closed the socket. */
  closed: Promise<number>;
  received: () => string;
  stop: () => void;
}

function connectSlowly(origin: string): SlowClient {
  const { hostname, port } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  const opened = Date.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  // A request line, then a header that never ends.
  const drip = `GET / HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: ${'a'.repeat(100)}`;
  let at = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && at < drip.length) socket.write(drip[at++]!);
  }, 1000);
  socket.once('connect', () => socket.write(drip.slice(0, (at = 16))));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  void closed.then(() => clearInterval(timer));
  return {
    closed,
    received: () => received,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

describe('slow clients', () => {
  it('drops a client that sends its headers a byte a second, and keeps answering others', { timeout: 300_000 }, async () => {
    const slow = Array.from({ length: SLOW_CLIENTS }, () => connectSlowly(server.origin));
    try {
      // Readers meanwhile: every one answered, and fast.
      const readerTimes: number[] = [];
      let firstClosed = false;
      let answeredBeforeAnyDrop = 0;
      void Promise.race(slow.map((client) => client.closed)).then(() => (firstClosed = true));
      let allClosed = false;
      const closedAll = Promise.all(slow.map((client) => client.closed)).then((times) => {
        allClosed = true;
        return times;
      });
      while (!allClosed) {
        const started = performance.now();
        const response = await fetch(server.url('/'));
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        readerTimes.push(performance.now() - started);
        if (!firstClosed) answeredBeforeAnyDrop++;
        await Promise.race([closedAll, new Promise((resolve) => setTimeout(resolve, 250))]);
      }
      const times = await closedAll;
      for (const [i, ms] of times.entries()) {
        // Not before the header timeout (so it is that timeout at work), and soon after it.
        expect(ms, `slow client ${i} closed after ${ms} ms`).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 500);
        // Well before Node's default 30 s check interval would have let it go (up to 40 s); the
        // headroom is for a loaded machine.
        expect(ms, `slow client ${i} closed after ${ms} ms`).toBeLessThan(HEADERS_TIMEOUT_MS + 10_000);
        expect(slow[i]!.received()).toMatch(/^HTTP\/1\.1 408 /);
      }
      // Every reader was answered, and readers were answered while all the slow clients still
      // held their sockets: none waited for them to be dropped.
      expect(readerTimes.length).toBeGreaterThan(10);
      expect(answeredBeforeAnyDrop).toBeGreaterThanOrEqual(3);
    } finally {
      for (const client of slow) client.stop();
    }
  });
});
