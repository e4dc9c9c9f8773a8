import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { guardSlowClients } from './slow-clients.ts';

// Small limits so each case ends quickly; nothing here is judged by the clock: each case waits
// for what the server sends and for the socket to close.
const LIMITS = { headersMs: 300, requestMs: 900, checkEveryMs: 50 };

let server: http.Server | null = null;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function start(handler: http.RequestListener): Promise<number> {
  server = http.createServer(handler);
  guardSlowClients(server, LIMITS);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as net.AddressInfo).port;
}

interface RawClient {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Settles with everything the server sent once it closed the connection. */
  closed: Promise<string>;
  /** Settles once what the server sent so far passes `test`. */
  receivedSuch: (test: (received: string) => boolean) => Promise<void>;
}

function connect(port: number): RawClient {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  const receivedSuch = async (test: (received: string) => boolean): Promise<void> => {
    while (!test(received)) {
      const more = new Promise<void>((resolve) => waiters.push(resolve));
      const gone = closed.then(() => {
        throw new Error(`closed early; got: ${received}`);
      });
      await Promise.race([more, gone]);
    }
  };
  return { socket, received: () => received, closed, receivedSuch };
}

/** Writes one byte of a header that never ends, again and again, until the socket closes. */
function dripHeader(client: RawClient): void {
  const timer = setInterval(() => (client.socket.writable ? client.socket.write('a') : clearInterval(timer)), 20);
  void client.closed.then(() => clearInterval(timer));
}

const ok: http.RequestListener = (_req, res) => res.end('ok');

describe('guardSlowClients', () => {
  it('answers a request that sat unread while the process itself was busy for longer than the limits', async () => {
    const port = await start(ok);
    // The process takes the connection, then is busy past both limits before it reads the request
    // that was sent at once. Node's own headersTimeout refused such a request (408, or a reset).
    server!.on('connection', () => {
      const until = Date.now() + LIMITS.requestMs + LIMITS.headersMs;
      while (Date.now() < until);
    });
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(answer).toEqual({ status: 200, body: 'ok' });
  });

  it('cuts off a client that sends its headers a byte at a time, with a 408', async () => {
    const port = await start(ok);
    const client = connect(port);
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    dripHeader(client);
    expect(await client.closed).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('cuts off a request whose body never ends, with a 408', async () => {
    let bodyStarted = false;
    const port = await start((req, res) => {
      req.on('data', () => (bodyStarted = true));
      req.on('end', () => res.end('got it'));
    });
    const client = connect(port);
    client.socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789');
    expect(await client.closed).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(bodyStarted).toBe(true);
  });

  it('leaves an answer that takes longer than the limits alone', async () => {
    const port = await start((_req, res) => {
      setTimeout(() => res.end('slow answer'), LIMITS.requestMs + LIMITS.headersMs);
    });
    const client = connect(port);
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.receivedSuch((text) => text.endsWith('slow answer'));
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });

  it('on a kept-alive connection, answers the next request and cuts off a dribbled one', async () => {
    const port = await start(ok);
    const client = connect(port);
    const answers = (text: string) => text.split('\r\n\r\nok').length - 1;
    client.socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.receivedSuch((text) => answers(text) === 1);
    client.socket.write('GET /second HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.receivedSuch((text) => answers(text) === 2);
    const answered = client.received().length;
    client.socket.write('GET /third HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    dripHeader(client);
    const all = await client.closed;
    expect(all.slice(0, answered).match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(all.slice(answered)).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });
});
