// The production server: prepares the database, then serves the built site (`npm run build` first).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig, ConfigError } from '../config.ts';
import { prepareApp } from '../bootstrap.ts';
import { setAppContext } from '../app-context.ts';
import { createHttpServer, type AstroHandler } from './server.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
const entry = path.join(config.distDir, 'server/entry.mjs');
if (!fs.existsSync(entry)) {
  console.error('No build found: run `npm run build` (or `npm start`, which builds when needed).');
  process.exit(1);
}

const context = await prepareApp(config);
setAppContext(context);
const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
const server = createHttpServer({ context, astro: handler, clientDir: path.join(config.distDir, 'client') });

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Study site listening on http://${config.host}:${port} (public origin ${config.publicOrigin})`);
});

function shutdown(signal: string) {
  console.log(`${signal}: closing`);
  server.close(() => {
    context.sqlite.close();
    process.exit(0);
  });
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
