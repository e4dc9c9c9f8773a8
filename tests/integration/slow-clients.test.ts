import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';

/**
 * Slow clients (issue "Hardening", operations): a slowloris client that sends its headers one byte
 * a second is cut off by the server's header timeout (a 408 while its header is still unfinished),
 * while everyone else keeps getting answers. No stopwatch: what the server sends and the order of
 * events prove it.
 */

const SLOW_CLIENTS = 20;

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  // The start-up pre-render competes for the CPU; let it finish so reader times mean something.
  await untilPrerendered(server);
}); // the start-up pre-render may take minutes on a loaded machine

afterAll(async () => {
  await server?.stop();
});

interface SlowClient {
  /** Settles when the server closed the socket (the client itself never finishes its header). */
  closed: Promise<void>;
  received: () => string;
  stop: () => void;
}

/** Called after any slow client sent its next byte: the readers below go at that pace. */
let onDrip: () => void = () => {};

function connectSlowly(origin: string): SlowClient {
  const { hostname, port } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  // A request line, then a header that never ends: only the server can end this connection.
  socket.once('connect', () => socket.write(`GET / HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `));
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) {
      socket.write('a');
      onDrip();
    }
  }, 1000);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
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
  it('drops a client that sends its headers a byte a second, and keeps answering others', async () => {
    const slow = Array.from({ length: SLOW_CLIENTS }, () => connectSlowly(server.origin));
    try {
      // Readers meanwhile, the first few at once, then one per drip: every one answered.
      let answered = 0;
      let firstClosed = false;
      let answeredBeforeAnyDrop = 0;
      void Promise.race(slow.map((client) => client.closed)).then(() => (firstClosed = true));
      let allClosed = false;
      const closedAll = Promise.all(slow.map((client) => client.closed)).then(() => (allClosed = true));
      while (!allClosed) {
        const response = await fetch(server.url('/'));
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        answered++;
        if (!firstClosed) answeredBeforeAnyDrop++;
        if (answered >= 3) await Promise.race([closedAll, new Promise<void>((resolve) => (onDrip = resolve))]);
      }
      for (const [i, client] of slow.entries()) {
        // The header timeout at work: the server answered 408 to a header it never got the end of.
        expect(client.received(), `slow client ${i}`).toMatch(/^HTTP\/1\.1 408 /);
      }
      // Readers were answered while all the slow clients still held their sockets: none waited
      // for them to be dropped.
      expect(answeredBeforeAnyDrop).toBeGreaterThanOrEqual(3);
    } finally {
      for (const client of slow) client.stop();
    }
  });
});
