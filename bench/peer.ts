// `npm run bench:peer`: one stored article page from the real server, with one serving process and
// with WEB_PROCESSES=2 (a second server on the same files), against nginx serving the same bytes,
// measured interleaved (one, two, nginx, one, two, nginx, ...) so a change in what the machine is
// doing hits all. Prints figures; asserts nothing.
// BENCH_ARTICLES (10000), BENCH_SECONDS (5 per run), BENCH_ROUNDS (3), BENCH_NGINX_WORKERS (1).
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Admin, median, requireBuild, SERVER_MAIN, siteEnv, startProcess } from './site.ts';
import {
  ENCODINGS,
  loadAverage,
  generateComparedSite,
  measure,
  nginxRoot,
  rawGet,
  startNginx,
  stopChildren,
  type Answer,
} from './peer-servers.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const NGINX_WORKERS = Number(process.env.BENCH_NGINX_WORKERS ?? 1);
const CONNECTIONS = 50;
const ADMIN: Admin = { email: 'bench@example.com', password: 'bench-password-123' };
const children: ChildProcess[] = [];

/** The built server, once it has pre-rendered every public page; its port is read from its origin. */
async function startSite(
  env: Record<string, string>,
  ready = /Pre-rendered \d+ pages/,
): Promise<{ origin: string; port: number }> {
  const { child, started } = startProcess([SERVER_MAIN], env, ready);
  children.push(child);
  const { origin } = await started;
  return { origin, port: Number(new URL(origin).port) };
}

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
    const databasePath = await generateComparedSite(dir, ARTICLES, ADMIN);
    console.log('Starting the built server and pre-rendering every public page...');
    // One public origin for both servers: they share the stored pages (a page names its origin).
    const env = { ...siteEnv(dir, databasePath, ADMIN), PUBLIC_ORIGIN: 'http://127.0.0.1' };
    const site = await startSite({ ...env, WEB_PROCESSES: '1' });
    const cluster = await startSite({ ...env, WEB_PROCESSES: '2' }, /listening on/);
    const pagePath = `/blog/${Math.floor(ARTICLES / 2)}`;

    // The same bytes for nginx, from our own answers.
    const www = nginxRoot(dir);
    const ours: Record<string, Answer> = {};
    for (const { name, accept, suffix } of ENCODINGS) {
      ours[name] = await rawGet(site.port, pagePath, accept);
      if (ours[name].headers['x-page-store'] !== 'HIT')
        throw new Error(`${pagePath} (${name}) was not a stored page: ${ours[name].headers['x-page-store']}`);
      fs.writeFileSync(path.join(www, `page.html${suffix}`), ours[name].body, { mode: 0o644 });
    }
    const nginxPort = await startNginx(dir, ours.identity!.headers['content-type']!, NGINX_WORKERS, children);
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
      for (let round = 0; round < ROUNDS; round++)
        for (const c of contenders) runs[c.name]!.push(await measure(c.url, accept, CONNECTIONS, SECONDS));
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
    await stopChildren(children);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
