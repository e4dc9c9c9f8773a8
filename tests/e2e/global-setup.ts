import { startServer } from '../support/server.ts';

/** One real server with fresh demo data for the browser tests; its origin reaches the tests by env. */
export default async function globalSetup() {
  const server = await startServer();
  process.env.E2E_ORIGIN = server.origin;
  process.env.E2E_DATA_DIR = server.dir;
  return async () => {
    await server.stop();
  };
}
