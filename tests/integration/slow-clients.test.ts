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
/** Slow clients connected in turn, each after the last was dropped, before the test gives up. */
const MAX_GENERATIONS = 10;

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
  /** Connected and not yet dropped: the server holds this socket open. */
  held: () => boolean;
  received: () => string;
  stop: () => void;
}

/** Called after any slow client sent its next byte: the readers below go at that pace. */
let onDrip: () => void = () => {};

function connectSlowly(origin: string): SlowClient {
  const { hostname, port } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  let received = '';
  let connected = false;
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  // A request line, then a header that never ends: only the server can end this connection.
  socket.once('connect', () => {
    connected = true;
    socket.write(`GET / HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `);
  });
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) {
      socket.write('a');
      onDrip();
    }
  }, 1000);
  const closedPromise = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closedPromise.then(() => {
    closed = true;
    clearInterval(timer);
  });
  return {
    closed: closedPromise,
    held: () => connected && !closed,
    received: () => received,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

describe('slow clients', () => {
  it('drops a client that sends its headers a byte a second, and keeps answering others', async () => {
    // The server drops each slow client after its header timeout, and on a busy machine a reader
    // may take longer than that. So a dropped slow client is replaced, a generation at a time,
    // until readers were answered while the slow clients held before each request were still
    // held: the proof is the order of events, whatever the machine's pace.
    const slow: SlowClient[] = [];
    let answeredWhileHeld = 0;
    let gaveUp = false;
    const connect = (generation: number): void => {
      const client = connectSlowly(server.origin);
      slow.push(client);
      void client.closed.then(() => {
        if (answeredWhileHeld >= 3) return;
        if (generation < MAX_GENERATIONS) connect(generation + 1);
        else gaveUp = true;
      });
    };
    for (let i = 0; i < SLOW_CLIENTS; i++) connect(1);
    const first = slow.slice();
    try {
      let allFirstClosed = false;
      const firstClosed = Promise.all(first.map((client) => client.closed)).then(() => (allFirstClosed = true));
      // Readers meanwhile, one after another until enough were answered, then one per drip.
      while (!allFirstClosed || (answeredWhileHeld < 3 && !gaveUp)) {
        const heldBefore = slow.filter((client) => client.held());
        const response = await fetch(server.url('/'));
        await response.arrayBuffer();
        expect(response.status).toBe(200);
        // A server that made readers wait for the slow clients would answer only once these went.
        const stillHeld = heldBefore.filter((client) => client.held()).length;
        if (stillHeld >= SLOW_CLIENTS / 2) answeredWhileHeld++;
        if (answeredWhileHeld >= 3) await Promise.race([firstClosed, new Promise<void>((resolve) => (onDrip = resolve))]);
      }
      for (const [i, client] of first.entries()) {
        // The header timeout at work: the server answered 408 to a header it never got the end of.
        expect(client.received(), `slow client ${i}`).toMatch(/^HTTP\/1\.1 408 /);
      }
      expect(answeredWhileHeld, 'readers answered while slow clients held their sockets').toBeGreaterThanOrEqual(3);
    } finally {
      for (const client of slow) client.stop();
    }
  });
});
