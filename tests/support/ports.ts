import net from 'node:net';

/**
 * A free port on 127.0.0.1 for a server a test starts. Asking the kernel for one (`listen(0)`)
 * and handing it to a child process that binds it later races: another test worker may be handed
 * the same port meanwhile, and the child then fails with "already in use" (seen under 8 busy
 * loops). Each test worker takes its ports from a block of its own, below Linux's ephemeral range
 * (32768-60999: where `listen(0)` and outgoing connections take theirs), so no other worker and
 * no client socket is given one of them; a port something else already holds is skipped.
 */
const FIRST_PORT = 20_000;
const BLOCK = 500;
const BLOCKS = 24; // 20,000-31,999

function workerIndex(): number {
  const id = process.env.VITEST_POOL_ID ?? process.env.TEST_PARALLEL_INDEX ?? process.env.TEST_WORKER_INDEX;
  return id !== undefined && /^\d+$/.test(id) ? Number(id) : process.pid;
}

const block = FIRST_PORT + (workerIndex() % BLOCKS) * BLOCK;
// Each test file starts somewhere else in its block: a server the file before left stopping may
// still hold a port for a moment.
let next = Math.floor(Math.random() * BLOCK);

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export async function findFreePort(): Promise<number> {
  for (let tried = 0; tried < BLOCK; tried++) {
    const port = block + (next++ % BLOCK);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${block}-${block + BLOCK - 1}`);
}
