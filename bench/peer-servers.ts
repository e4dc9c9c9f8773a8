// What the peer benchmarks share: a raw GET that counts header bytes, nginx serving a page's
// encodings chosen by Accept-Encoding like ours (its folder, start and stop), one autocannon run,
// medians.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { generateSite } from './generate-site.ts';
import { stopOnInterrupt } from './site.ts';

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file));
export const ENCODINGS = [
  { name: 'identity', accept: 'identity', suffix: '' },
  { name: 'gzip', accept: 'gzip', suffix: '.gz' },
  { name: 'br', accept: 'br', suffix: '.br' },
] as const;

export interface Answer {
  status: number;
  headerBytes: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One keep-alive GET on a fresh socket, read byte for byte, so the header block is counted as sent. */
export function rawGet(port: number, urlPath: string, acceptEncoding: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const lines = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1))
        headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const body = received.subarray(end + 4);
      if (body.length < Number(headers['content-length'] ?? 0)) return;
      socket.destroy();
      resolve({ status: Number(lines[0]!.split(' ')[1]), headerBytes: end + 4, headers, body });
    });
    socket.write(`GET ${urlPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept-Encoding: ${acceptEncoding}\r\n\r\n`);
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * The folder nginx serves, `${dir}/www`. `dir` is made world-readable: nginx's workers drop root,
 * and mkdtemp makes a folder only its owner may enter.
 */
export function nginxRoot(dir: string): string {
  const www = path.join(dir, 'www');
  fs.mkdirSync(www, { recursive: true });
  fs.chmodSync(dir, 0o755);
  return www;
}

/** Stops the servers and nginx (SIGTERM: nginx's fast shutdown) and waits until all are gone. */
export async function stopChildren(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** nginx on 127.0.0.1 serving the page's three encodings, chosen by Accept-Encoding like ours. */
export async function startNginx(dir: string, contentType: string, workers: number, children: ChildProcess[]): Promise<number> {
  return startNginxWith(
    dir,
    workers,
    `default_type "${contentType}";
    location = /page {
      add_header Vary Accept-Encoding;
      add_header Content-Encoding $coding;
      try_files /page.html$suffix =404;
    }`,
    children,
  );
}

/**
 * Fetches every path in each encoding (a few at a time) and writes nginx's copy of the bytes as
 * `${www}/p/<index><suffix>`; answers the HTML pages' paths and the others' (left out).
 */
export async function copyPagesForNginx(
  port: number,
  paths: string[],
  www: string,
  encodings: Array<'br' | 'gzip' | 'identity'>,
): Promise<{ kept: string[]; skipped: string[] }> {
  const suffixes = { br: '.br', gzip: '.gz', identity: '' } as const;
  const kept: string[] = [];
  const skipped: string[] = [];
  fs.mkdirSync(path.join(www, 'p'), { recursive: true });
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const index = next++;
      const urlPath = paths[index]!;
      let html = true;
      for (const encoding of encodings) {
        // The first request for an encoding has a worker make it; the next one has it stored.
        let answer = await rawGet(port, urlPath, encoding);
        if ((answer.headers['content-encoding'] ?? 'identity') !== encoding) answer = await rawGet(port, urlPath, encoding);
        if (answer.status !== 200 || !/^text\/html/.test(answer.headers['content-type'] ?? '')) html = false;
        else if ((answer.headers['content-encoding'] ?? 'identity') !== encoding)
          throw new Error(`${urlPath}: still not answered in ${encoding} on a second request`);
        fs.writeFileSync(path.join(www, 'p', `${index}${suffixes[encoding]}`), answer.body, { mode: 0o644 });
      }
      (html ? kept : skipped).push(urlPath);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { kept, skipped };
}

/**
 * nginx on 127.0.0.1 with `workers` worker processes, serving ${dir}/www with the given directives
 * inside its server block; `$suffix` (".br", ".gz" or "") and `$coding` say what the request's
 * Accept-Encoding takes, as ours chooses.
 */
export async function startNginxWith(
  dir: string,
  workers: number,
  serverBlock: string,
  children: ChildProcess[],
): Promise<number> {
  if (!NGINX) throw new Error('nginx is not installed: `apt-get install -y nginx` (Debian package) and run again.');
  const port = await freePort();
  const config = `
worker_processes ${workers};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/tmp-body;
  proxy_temp_path ${dir}/tmp-proxy;
  fastcgi_temp_path ${dir}/tmp-fastcgi;
  uwsgi_temp_path ${dir}/tmp-uwsgi;
  scgi_temp_path ${dir}/tmp-scgi;
  types { }
  map $http_accept_encoding $suffix { default ""; "~*(^|[ ,])br($|[ ,;])" ".br"; "~*(^|[ ,])gzip($|[ ,;])" ".gz"; }
  map $suffix $coding { default ""; ".br" "br"; ".gz" "gzip"; }
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    ${serverBlock}
  }
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), config);
  const check = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], {
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`nginx refused the config:\n${check.stderr}`);
  const child = stopOnInterrupt(
    spawn(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' }),
  );
  children.push(child);
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket.end() && true));
      socket.on('error', () => resolve(false));
    });
    if (open) return port;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen:\n${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
}

export async function measure(url: string, accept: string, connections: number, seconds: number) {
  const result = await autocannon({ url, connections, duration: seconds, headers: { 'accept-encoding': accept } });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Says how busy the machine is, then generates the compared site in `dir`; answers its database path. */
export async function generateComparedSite(
  dir: string,
  articles: number,
  admin: { email: string; password: string },
): Promise<string> {
  console.log(`Load average before: ${loadAverage()} (what else this machine was doing is unknown)`);
  console.log(`Generating ${articles} articles in 10 categories...`);
  const databasePath = path.join(dir, 'site.sqlite');
  await generateSite(databasePath, { articles, categories: 10, adminEmail: admin.email, adminPassword: admin.password });
  return databasePath;
}
