import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMPILED_MAIN } from '../../scripts/server-entry.mjs';
import { processTree } from './processes.ts';
import { findFreePort } from './ports.ts';
import { HANG_GUARD_MS, untilTrue } from './wait.ts';

/**
 * Starts the real built server (dist/ must exist: `npm run build`) on 127.0.0.1 with a free port,
 * its own fresh SQLite file and uploads folder, seeded with the demo content unless told not to.
 */
export interface TestServer {
  origin: string;
  dir: string;
  databasePath: string;
  uploadsDir: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
  url: (p: string) => string;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a data folder (for restart tests). */
  dir?: string;
}

export const ADMIN_EMAIL = 'admin@test.local';
export const ADMIN_PASSWORD = 'admin-password-123';

/** Starts with another free port, at most this many times, when the one found was taken before the server bound it. */
const PORT_ATTEMPTS = 5;

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (error) {
      // A port found free may be taken before the server binds it (seconds later on a busy
      // machine): by a server of another test run, or one still starting. A port the test chose
      // is its own business.
      if (!(error instanceof PortTaken) || options.env?.PORT !== undefined || attempt === PORT_ATTEMPTS) throw error;
      console.warn(`Port ${error.port} was taken before the test server bound it; starting on another port`);
      if (!options.dir) fs.rmSync(error.dir, { recursive: true, force: true });
    }
  }
}

/** The server could not bind its port: something took it after `findFreePort` found it free. */
class PortTaken extends Error {
  readonly port: string;
  readonly dir: string;
  constructor(message: string, port: string, dir: string) {
    super(message);
    this.port = port;
    this.dir = dir;
  }
}

async function startServerOnce(options: StartOptions): Promise<TestServer> {
  const root = path.resolve(import.meta.dirname, '../..');
  const distDir = path.resolve(root, process.env.DIST_DIR || 'dist');
  // The server as `npm start` runs it: compiled by the build from the same sources.
  const main = path.join(distDir, COMPILED_MAIN);
  if (!fs.existsSync(path.join(distDir, 'server/entry.mjs')) || !fs.existsSync(main))
    throw new Error('Run `npm run build` before the integration tests.');
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-test-'));
  const databasePath = path.join(dir, 'site.sqlite');
  const uploadsDir = path.join(dir, 'uploads');
  // A known port, so PUBLIC_ORIGIN (canonical URLs, share links) matches the address in use.
  const port = options.env?.PORT ?? String(await findFreePort());
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: port,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    // Tests make many accounts and comments; tests of the limits set their own small values.
    RATE_LIMIT_REGISTER_IP: '1000',
    RATE_LIMIT_COMMENT_IP: '1000',
    RATE_LIMIT_SEARCH_IP: '1000',
    // Test browsers fill the comment form in milliseconds; the timing rule has its own tests.
    COMMENT_MIN_FORM_SECONDS: '0',
    // Most tests post comments as a plain API client, without the form's token; the token rule
    // has its own tests (tests/integration/comments-moderation.test.ts turns it back on).
    COMMENT_REQUIRE_FORM_TOKEN: 'false',
    // Two serving processes, as users run it (the default of a 2-core machine): what a reader
    // sees must hold whichever process answers. A test of one process's own behaviour says so.
    WEB_PROCESSES: '2',
    DATABASE_PATH: databasePath,
    UPLOADS_DIR: uploadsDir,
    PAGE_STORE_DIR: path.join(dir, 'pages'),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    NODE_ENV: 'test',
    DIST_DIR: distDir,
    ...options.env,
  };
  const child = spawn(process.execPath, [main], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const origin = await new Promise<string>((resolve, reject) => {
    // A hang guard: migrating and starting take a while on a machine busy with other work.
    const timer = setTimeout(() => reject(new Error(`Server did not start in time:\n${output}`)), HANG_GUARD_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      const message = `Server exited with ${code}:\n${output}`;
      reject(/ is already in use: /.test(output) ? new PortTaken(message, port, dir) : new Error(message));
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      // Only for a server that hangs: a clean stop (pending writes flushed) may take a while when busy.
      setTimeout(() => child.kill('SIGKILL'), HANG_GUARD_MS).unref();
    });
  return { origin, dir, databasePath, uploadsDir, process: child, output: () => output, stop, url: (p) => origin + p };
}

/**
 * A crash of the whole server, as an out-of-memory kill or a power cut leaves it: SIGKILL to the
 * first process and every serving process at once (a SIGKILL to the first one alone lets the
 * others finish what they were doing and exit). Resolves once the first process is gone.
 */
export function killServerHard(target: TestServer): Promise<void> {
  return new Promise((resolve) => {
    if (target.process.exitCode !== null || target.process.signalCode !== null) return resolve();
    target.process.once('exit', () => resolve());
    for (const pid of processTree(target.process.pid!)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
  });
}

/** Waits until the server's background pre-render of a fresh page store has finished. */
export async function untilPrerendered(server: TestServer, timeoutMs = HANG_GUARD_MS): Promise<void> {
  try {
    await untilTrue(() => /Pre-rendered \d+ pages/.test(server.output()), 'the pre-render', timeoutMs);
  } catch {
    throw new Error(`No pre-render finished in time:\n${server.output()}`);
  }
}
