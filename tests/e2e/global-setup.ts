import { startServer } from '../support/server.ts';

/**
 * One real server with fresh demo data for the browser tests; its origin reaches the tests by env.
 * Two serving processes, as users run it: a reader's next request may reach the other one.
 */
export default async function globalSetup() {
  const server = await startServer({ env: { WEB_PROCESSES: '2' } });
  process.env.E2E_ORIGIN = server.origin;
  process.env.E2E_DATA_DIR = server.dir;
  return async () => {
    await server.stop();
  };
}
