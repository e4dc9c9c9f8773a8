import net from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';

// The first port handed out is one something takes after it was found free, as another test run's
// server may between the look and the bind.
const taken = vi.hoisted(() => ({ port: 0, handedOut: [] as number[] }));
vi.mock('../support/ports.ts', async (original) => {
  const real = await original<typeof import('../support/ports.ts')>();
  return {
    findFreePort: async () => {
      const port = taken.handedOut.length === 0 && taken.port ? taken.port : await real.findFreePort();
      taken.handedOut.push(port);
      return port;
    },
  };
});

const { startServer } = await import('../support/server.ts');

const holder = net.createServer();
afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

describe("the tests' server", () => {
  it('starts on another port when the one it found free was taken before it bound it', async () => {
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    taken.port = (holder.address() as net.AddressInfo).port;
    const server = await startServer({ env: { SEED_DEMO: 'false' } });
    try {
      expect(taken.handedOut).toHaveLength(2);
      expect(taken.handedOut[0]).toBe(taken.port);
      expect(server.origin).toBe(`http://127.0.0.1:${taken.handedOut[1]}`);
      expect((await fetch(server.url('/healthz'))).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
