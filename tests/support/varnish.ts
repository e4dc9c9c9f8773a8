import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from './ports.ts';
import { HANG_GUARD_MS, until } from './wait.ts';

/**
 * Real Varnish (Debian's varnishd with varnish-modules) running deploy/varnish.vcl in front of
 * test servers. The VCL takes its backends and purge acl from `site-backends.vcl` on vcl_path;
 * here a generated one in the instance's own folder comes first on that path.
 */

export const VARNISHD = ['/usr/sbin/varnishd', '/usr/bin/varnishd'].find((file) => fs.existsSync(file)) ?? null;

/** The purge secret of the test instances: the app servers in front of them get it as PURGE_SECRET. */
export const TEST_PURGE_SECRET = 'test-purge-secret-5d41402abc4b2a76b9719d911017c592';

/** Why Varnish cannot run here, or null when it can. */
export function varnishMissing(): string | null {
  if (!VARNISHD) return 'varnishd is not installed (apt-get install -y varnish varnish-modules)';
  const vmods = ['/usr/lib/x86_64-linux-gnu/varnish/vmods', '/usr/lib/aarch64-linux-gnu/varnish/vmods', '/usr/lib/varnish/vmods'];
  if (!vmods.some((dir) => fs.existsSync(path.join(dir, 'libvmod_xkey.so'))))
    return 'the xkey module is not installed (apt-get install -y varnish-modules)';
  return null;
}

export interface TestVarnish {
  origin: string;
  port: number;
  /** varnishd's manager process (its cache process is its child). */
  pid: number;
  dir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * A free port held open until `release()`: the app servers are told Varnish's address before
 * Varnish starts, and meanwhile no other test's server may be handed the same port.
 */
export async function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  // From this test worker's own block: once released for Varnish, no other worker is handed it.
  const port = await findFreePort();
  const holder = net.createServer();
  await new Promise<void>((resolve, reject) => {
    holder.once('error', reject);
    holder.listen(port, '127.0.0.1', () => resolve());
  });
  return { port, release: () => new Promise<void>((resolve) => holder.close(() => resolve())) };
}

export interface SilentAddress {
  port: number;
  /**
   * From now on, each connection is passed through to `port` (a Varnish already running): the
   * address answers at once, as when Varnish takes it over. The hung connections are dropped.
   */
  relayTo: (port: number) => void;
  /** Drops every connection and frees the port. */
  release: () => Promise<void>;
}

/**
 * A port that accepts connections and never answers (a hung Varnish), until `relayTo()` makes it
 * answer through a real Varnish started beforehand. Starting varnishd there instead (compiling its
 * VCL) took over a minute on a busy machine, past the purger's last retry.
 */
export async function blackHole(): Promise<SilentAddress> {
  const reserved = await reservePort();
  await reserved.release();
  const sockets = new Set<net.Socket>();
  let target: number | null = null;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((socket) => {
    track(socket);
    if (target === null) return;
    const upstream = net.connect(target, '127.0.0.1');
    track(upstream);
    upstream.on('close', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(reserved.port, '127.0.0.1', () => resolve());
  });
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: reserved.port,
    relayTo: (port) => {
      dropAll();
      target = port;
    },
    release: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      dropAll();
      return closed;
    },
  };
}

/** The include deploy/varnish.vcl expects: one backend per app port, purges from `purgers` with the secret only. */
export function siteBackendsVcl(
  appPorts: number[],
  purgers: string[],
  extra?: ExtraBackend,
  purgeSecret = TEST_PURGE_SECRET,
): string {
  const backends = appPorts
    .map((port, i) => `backend app${i + 1} {\n  .host = "127.0.0.1";\n  .port = "${port}";\n  .probe = site_health;\n}\n`)
    .join('\n');
  const extraBackend = extra ? `backend extra {\n  .host = "127.0.0.1";\n  .port = "${extra.port}";\n}\n` : '';
  const extraRoute = extra
    ? `  if (req.url ~ "^${extra.urlPrefix}") {\n    set req.backend_hint = extra;\n    return;\n  }\n`
    : '';
  return `vcl 4.1;

${backends}
${extraBackend}
acl purgers {
${purgers.map((address) => `  "${address}";`).join('\n')}
}

sub purge_secret {
  set req.http.purge-secret-expected = "${purgeSecret}";
}

acl tls_terminators {
  "127.0.0.3";
}

sub vcl_init {
  new site = directors.round_robin();
${appPorts.map((_, i) => `  site.add_backend(app${i + 1});`).join('\n')}
}

sub site_backend {
${extraRoute}  set req.backend_hint = site.backend();
}
`;
}

/** A backend besides the app servers, for the URLs under `urlPrefix` (tests of the VCL's own rules). */
export interface ExtraBackend {
  port: number;
  urlPrefix: string;
}

/**
 * Copies deploy/*.vcl into `dir` (readable by all); the generated site-backends.vcl written after
 * it replaces the deploy example.
 */
export function copyDeployVcl(root: string, dir: string): void {
  const deploy = path.join(root, 'deploy');
  for (const name of fs.readdirSync(deploy).filter((file) => file.endsWith('.vcl'))) {
    fs.copyFileSync(path.join(deploy, name), path.join(dir, name));
    fs.chmodSync(path.join(dir, name), 0o644);
  }
}

/** Starts varnishd in the foreground on a free port and waits until it answers through to an app. */
export async function startVarnish(options: {
  appPorts: number[];
  purgers?: string[];
  /** Varnish's port, reserved while the app servers started; released here, just before varnishd binds it. */
  reserved?: { port: number; release: () => Promise<void> };
  extraBackend?: ExtraBackend;
  /** The secret purges must carry (default TEST_PURGE_SECRET); '' leaves it unset, as shipped. */
  purgeSecret?: string;
}): Promise<TestVarnish> {
  if (!VARNISHD) throw new Error(varnishMissing()!);
  const root = path.resolve(import.meta.dirname, '../..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-varnish-'));
  // varnishd compiles and loads the VCL as its own unprivileged user, which may not be able to
  // read the clone (a home folder only its owner can enter): it gets copies in a folder it can read.
  fs.chmodSync(dir, 0o755);
  copyDeployVcl(root, dir);
  fs.writeFileSync(
    path.join(dir, 'site-backends.vcl'),
    siteBackendsVcl(options.appPorts, options.purgers ?? ['127.0.0.1'], options.extraBackend, options.purgeSecret),
    { mode: 0o644 },
  );
  fs.chmodSync(path.join(dir, 'site-backends.vcl'), 0o644);
  const port = options.reserved?.port ?? (await findFreePort());
  await options.reserved?.release();
  const args = [
    '-F',
    '-n',
    path.join(dir, 'instance'),
    '-a',
    `127.0.0.1:${port}`,
    '-f',
    path.join(dir, 'varnish.vcl'),
    '-p',
    `vcl_path=${dir}:/usr/share/varnish/vcl`,
    '-s',
    'malloc,64m',
  ];
  const child: ChildProcess = spawn(VARNISHD, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  // Compiling the VCL and the first health probes take a while on a busy machine: a hang guard only.
  try {
    await until(
      async () =>
        child.exitCode !== null ||
        (await fetch(`${origin}/healthz`).then(
          (response) => response.status === 200,
          () => false,
        )),
      (answered) => answered,
      'varnishd to answer through to the app',
      HANG_GUARD_MS / 2,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
  if (child.exitCode !== null) throw new Error(`varnishd exited with ${child.exitCode}:\n${output}`);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(force);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { origin, port, pid: child.pid!, dir, output: () => output, stop };
}
