// `npm run bench:peer`: one stored article page from the real server, with one serving process and
// with WEB_PROCESSES=2 (a second server on the same files), against nginx serving the same bytes,
// measured interleaved (one, two, nginx, one, two, nginx, ...) so a change in what the machine is
// doing hits all. Prints figures; asserts nothing.
// BENCH_ARTICLES (10000), BENCH_SECONDS (5 per run), BENCH_ROUNDS (3), BENCH_NGINX_WORKERS (1).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { generateSite } from './generate-site.ts';
import { requireBuild, siteEnv, startProcess, type Admin } from './site.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const NGINX_WORKERS = Number(process.env.BENCH_NGINX_WORKERS ?? 1);
const CONNECTIONS = 50;
const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file));
const ENCODINGS = [
  { name: 'identity', accept: 'identity', suffix: '' },
  { name: 'gzip', accept: 'gzip', suffix: '.gz' },
  { name: 'br', accept: 'br', suffix: '.br' },
] as const;
const ADMIN: Admin = { email: 'bench@example.com', password: 'bench-password-123' };
const children: ChildProcess[] = [];

interface Answer {
  status: number;
  headerBytes: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One keep-alive GET on a fresh socket, read byte for byte, so the header block is counted as sent. */
function rawGet(port: number, urlPath: string, acceptEncoding: string): Promise<Answer> {
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The built server, once it has pre-rendered every public page; its port is read from its origin. */
async function startSite(
  env: Record<string, string>,
  ready = /Pre-rendered \d+ pages/,
): Promise<{ origin: string; port: number }> {
  const { child, started } = startProcess(['src/server/front/main.ts'], env, ready);
  children.push(child);
  const { origin } = await started;
  return { origin, port: Number(new URL(origin).port) };
}

/** nginx on 127.0.0.1 serving the page's three encodings, chosen by Accept-Encoding like ours. */
async function startNginx(dir: string, contentType: string): Promise<number> {
  if (!NGINX) throw new Error('nginx is not installed: `apt-get install -y nginx` (Debian package) and run again.');
  const port = await freePort();
  const config = `
worker_processes ${NGINX_WORKERS};
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
  default_type "${contentType}";
  map $http_accept_encoding $suffix { default ""; "~*(^|[ ,])br($|[ ,;])" ".br"; "~*(^|[ ,])gzip($|[ ,;])" ".gz"; }
  map $suffix $coding { default ""; ".br" "br"; ".gz" "gzip"; }
  server {
    listen 127.0.0.1:${port};
    root ${dir}/www;
    location = /page {
      add_header Vary Accept-Encoding;
      add_header Content-Encoding $coding;
      try_files /page.html$suffix =404;
    }
  }
}
`;
  fs.writeFileSync(path.join(dir, 'nginx.conf'), config);
  const check = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], {
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`nginx refused the config:\n${check.stderr}`);
  const child = spawn(NGINX, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], {
    stdio: 'ignore',
  });
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

async function measure(url: string, accept: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { 'accept-encoding': accept } });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Stops the site and nginx (SIGTERM: nginx's fast shutdown) and waits until both are gone. */
async function stopChildren(): Promise<void> {
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** The /_astro scripts and styles an article page loads (its static imports followed), in bytes per coding. */
async function assetBytes(port: number, html: string): Promise<Record<string, number>> {
  const queue = [
    ...new Set([...html.matchAll(/(?:src|href|component-url|renderer-url)="(\/_astro\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!)),
  ];
  const seen = new Set<string>();
  const totals: Record<string, number> = { identity: 0, gzip: 0, br: 0 };
  while (queue.length) {
    const asset = queue.shift()!;
    if (seen.has(asset)) continue;
    seen.add(asset);
    for (const { name, accept } of ENCODINGS) totals[name]! += (await rawGet(port, asset, accept)).body.length;
    if (!asset.endsWith('.js')) continue;
    const text = (await rawGet(port, asset, 'identity')).body.toString();
    for (const m of text.matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g))
      queue.push(path.posix.join(path.posix.dirname(asset), m[1]!));
  }
  totals.files = seen.size;
  return totals;
}

async function main() {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-peer-'));
  try {
    console.log(`Load average before: ${loadAverage()} (what else this machine was doing is unknown)`);
    console.log(`Generating ${ARTICLES} articles in 10 categories...`);
    const databasePath = path.join(dir, 'site.sqlite');
    await generateSite(databasePath, {
      articles: ARTICLES,
      categories: 10,
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
    });
    console.log('Starting the built server and pre-rendering every public page...');
    // One public origin for both servers: they share the stored pages (a page names its origin).
    const env = { ...siteEnv(dir, databasePath, ADMIN), PUBLIC_ORIGIN: 'http://127.0.0.1' };
    const site = await startSite({ ...env, WEB_PROCESSES: '1' });
    const cluster = await startSite({ ...env, WEB_PROCESSES: '2' }, /listening on/);
    const pagePath = `/blog/${Math.floor(ARTICLES / 2)}`;

    // The same bytes for nginx, from our own answers (world-readable: nginx workers drop root).
    const www = path.join(dir, 'www');
    fs.mkdirSync(www, { recursive: true });
    fs.chmodSync(dir, 0o755);
    const ours: Record<string, Answer> = {};
    for (const { name, accept, suffix } of ENCODINGS) {
      ours[name] = await rawGet(site.port, pagePath, accept);
      if (ours[name].headers['x-page-store'] !== 'HIT')
        throw new Error(`${pagePath} (${name}) was not a stored page: ${ours[name].headers['x-page-store']}`);
      fs.writeFileSync(path.join(www, `page.html${suffix}`), ours[name].body, { mode: 0o644 });
    }
    const nginxPort = await startNginx(dir, ours.identity!.headers['content-type']!);
    const contenders = [
      { name: 'ours', url: `${site.origin}${pagePath}`, port: site.port, path: pagePath },
      { name: 'ours x2', url: `${cluster.origin}${pagePath}`, port: cluster.port, path: pagePath },
      { name: 'nginx', url: `http://127.0.0.1:${nginxPort}/page`, port: nginxPort, path: '/page' },
    ];

    console.log('\nHeader bytes of each answer (status line and headers, body excluded)');
    for (const { name, accept } of ENCODINGS) {
      const [a, , b] = await Promise.all(contenders.map((c) => rawGet(c.port, c.path, accept)));
      if (!a!.body.equals(b!.body) || a!.status !== 200 || b!.status !== 200)
        throw new Error(`${name}: nginx does not send the same bytes`);
      console.log(
        `  ${name.padEnd(8)} body ${String(a!.body.length).padStart(6)} B   headers: ours ${a!.headerBytes} B, nginx ${b!.headerBytes} B`,
      );
    }

    const assets = await assetBytes(site.port, ours.identity!.body.toString());
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(
      `\nJS+CSS of the article page (${assets.files} files, static imports followed): identity ${kb(assets.identity!)}, gzip ${kb(assets.gzip!)}, br ${kb(assets.br!)}`,
    );

    console.log(
      `\nLoad: autocannon in this process, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds interleaved; nginx ${NGINX_WORKERS} worker(s), ours one process and WEB_PROCESSES=2; ${os.cpus().length} cores`,
    );
    for (const c of contenders) await autocannon({ url: c.url, connections: CONNECTIONS, duration: 2 });
    const rows: string[] = [];
    for (const { name, accept } of ENCODINGS) {
      const runs: Record<string, Awaited<ReturnType<typeof measure>>[]> = { ours: [], 'ours x2': [], nginx: [] };
      for (let round = 0; round < ROUNDS; round++) for (const c of contenders) runs[c.name]!.push(await measure(c.url, accept));
      const summary = (who: string) => {
        const r = runs[who]!;
        return {
          rps: median(r.map((x) => x.rps)),
          p50: median(r.map((x) => x.p50)),
          p99: median(r.map((x) => x.p99)),
          errors: r.reduce((n, x) => n + x.errors, 0),
        };
      };
      const a = summary('ours');
      const b = summary('nginx');
      const c = summary('ours x2');
      const each = (who: string) => runs[who]!.map((x) => x.rps.toFixed(0)).join(', ');
      rows.push(
        `  ${name.padEnd(8)} ours ${a.rps.toFixed(0).padStart(6)} req/s p50 ${a.p50} ms p99 ${a.p99} ms | nginx ${b.rps.toFixed(0).padStart(6)} req/s p50 ${b.p50} ms p99 ${b.p99} ms | ours/nginx ${(a.rps / b.rps).toFixed(2)} | errors ${a.errors}/${b.errors}`,
        `           x2   ${c.rps.toFixed(0).padStart(6)} req/s p50 ${c.p50} ms p99 ${c.p99} ms | x2/nginx ${(c.rps / b.rps).toFixed(2)} | x2/ours ${(c.rps / a.rps).toFixed(2)} | errors ${c.errors}`,
        `           runs: ours [${each('ours')}], ours x2 [${each('ours x2')}], nginx [${each('nginx')}]`,
      );
    }
    console.log('\nResults (medians of the rounds)');
    for (const row of rows) console.log(row);
    console.log(`\nLoad average after: ${loadAverage()}`);
  } finally {
    await stopChildren();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
