import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isConnectionReset } from './fetch-retry.ts';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A server that resets the first `resets` connections once a request arrives on them, then answers 200. */
async function resettingServer(resets: number): Promise<{ origin: string; requests: () => number }> {
  let requests = 0;
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      requests++;
      if (requests <= resets) socket.resetAndDestroy();
      else socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, requests: () => requests };
}

describe("the tests' fetch", () => {
  it('sends a GET once more when its connection was reset, as a browser does', async () => {
    const server = await resettingServer(1);
    const answer = await fetch(`${server.origin}/page`);
    expect(await answer.text()).toBe('ok');
    expect(server.requests()).toBe(2);
  });

  it('sends it only once more, and never a request that changes something', async () => {
    const twice = await resettingServer(2);
    const again = await fetch(`${twice.origin}/page`).catch((error: unknown) => error);
    expect(isConnectionReset(again)).toBe(true);
    expect(twice.requests()).toBe(2);

    const once = await resettingServer(1);
    const post = await fetch(`${once.origin}/api`, { method: 'POST', body: '{}' }).catch((error: unknown) => error);
    expect(isConnectionReset(post)).toBe(true);
    expect(once.requests()).toBe(1);
  });
});
