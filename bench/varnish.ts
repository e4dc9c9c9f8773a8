// `npm run bench:varnish`: one stored article page through Varnish (deploy/varnish.vcl) against
// nginx serving the same bytes and against the built-in server answering it itself, measured
// interleaved (varnish, nginx, built-in, varnish, ...) so a change in what the machine is doing
// hits all three. Prints medians; asserts nothing.
// BENCH_ARTICLES (2000), BENCH_SECONDS (5 per run), BENCH_ROUNDS (3), BENCH_NGINX_WORKERS (1).
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Admin, requireBuild, SERVER_MAIN, siteEnv, startProcess } from './site.ts';
import {
  ENCODINGS,
  loadAverage,
  generateComparedSite,
  measure,
  median,
  nginxRoot,
  rawGet,
  startNginx,
  stopChildren,
} from './peer-servers.ts';
import { reservePort, startVarnish, TEST_PURGE_SECRET, varnishMissing, type TestVarnish } from '../tests/support/varnish.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const NGINX_WORKERS = Number(process.env.BENCH_NGINX_WORKERS ?? 1);
const CONNECTIONS = 50;
const ADMIN: Admin = { email: 'bench@example.com', password: 'bench-password-123' };
const children: ChildProcess[] = [];

async function main() {
  const missing = varnishMissing();
  if (missing) {
    console.log(`Skipping the Varnish figures: ${missing}.`);
    return;
  }
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-varnish-bench-'));
  let varnish: TestVarnish | undefined;
  try {
    const databasePath = await generateComparedSite(dir, ARTICLES, ADMIN);
    const reserved = await reservePort();
    const varnishPort = reserved.port;
    const varnishOrigin = `http://127.0.0.1:${varnishPort}`;
    console.log('Starting the built server (pre-rendering every public page), then Varnish in front of it...');
    const { child, started } = startProcess(
      [SERVER_MAIN],
      {
        ...siteEnv(dir, databasePath, ADMIN),
        PUBLIC_ORIGIN: varnishOrigin,
        PURGE_VARNISH: varnishOrigin,
        PURGE_SECRET: TEST_PURGE_SECRET,
      },
      /Pre-rendered \d+ pages/,
    );
    children.push(child);
    const site = await started;
    const sitePort = Number(new URL(site.origin).port);
    varnish = await startVarnish({ appPorts: [sitePort], reserved });
    const pagePath = `/blog/${Math.floor(ARTICLES / 2)}`;

    const www = nginxRoot(dir);
    for (const { name, accept, suffix } of ENCODINGS) {
      const direct = await rawGet(sitePort, pagePath, accept);
      if (direct.headers['x-page-store'] !== 'HIT') throw new Error(`${pagePath} (${name}) was not a stored page`);
      await rawGet(varnishPort, pagePath, accept);
      const cached = await rawGet(varnishPort, pagePath, accept);
      if (cached.headers['x-cache'] !== 'HIT' || !cached.body.equals(direct.body))
        throw new Error(`${pagePath} (${name}): Varnish did not answer the stored bytes from its cache`);
      fs.writeFileSync(path.join(www, `page.html${suffix}`), direct.body, { mode: 0o644 });
    }
    const nginxPort = await startNginx(
      dir,
      (await rawGet(sitePort, pagePath, 'identity')).headers['content-type']!,
      NGINX_WORKERS,
      children,
    );
    const contenders = [
      { name: 'varnish', url: `${varnishOrigin}${pagePath}`, port: varnishPort, path: pagePath },
      { name: 'nginx', url: `http://127.0.0.1:${nginxPort}/page`, port: nginxPort, path: '/page' },
      { name: 'built-in', url: `${site.origin}${pagePath}`, port: sitePort, path: pagePath },
    ];

    console.log('\nHeader bytes of each answer (status line and headers, body excluded)');
    for (const { name, accept } of ENCODINGS) {
      const answers = await Promise.all(contenders.map((c) => rawGet(c.port, c.path, accept)));
      if (answers.some((a) => a.status !== 200 || !a.body.equals(answers[0]!.body)))
        throw new Error(`${name}: not the same bytes everywhere`);
      console.log(
        `  ${name.padEnd(8)} body ${String(answers[0]!.body.length).padStart(6)} B   headers: ${contenders.map((c, i) => `${c.name} ${answers[i]!.headerBytes} B`).join(', ')}`,
      );
    }

    console.log(
      `\nLoad: autocannon in this process, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds interleaved; Varnish 2 thread pools, nginx ${NGINX_WORKERS} worker(s), the built-in server one process; ${os.cpus().length} cores`,
    );
    for (const c of contenders) await autocannon({ url: c.url, connections: CONNECTIONS, duration: 2 });
    const rows: string[] = [];
    for (const { name, accept } of ENCODINGS) {
      const runs: Record<string, Awaited<ReturnType<typeof measure>>[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
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
      const [v, n, b] = contenders.map((c) => summary(c.name));
      const line = (label: string, s: ReturnType<typeof summary>) =>
        `${label} ${s.rps.toFixed(0).padStart(6)} req/s p50 ${s.p50} ms p99 ${s.p99} ms`;
      rows.push(
        `  ${name.padEnd(8)} ${line('varnish', v!)} | ${line('nginx', n!)} | ${line('built-in', b!)}`,
        `           varnish/nginx ${(v!.rps / n!.rps).toFixed(2)}, built-in/nginx ${(b!.rps / n!.rps).toFixed(2)}; errors ${v!.errors}/${n!.errors}/${b!.errors}; runs ${contenders.map((c) => `${c.name} [${runs[c.name]!.map((x) => x.rps.toFixed(0)).join(', ')}]`).join(', ')}`,
      );
    }
    console.log('\nResults (medians of the rounds)');
    for (const row of rows) console.log(row);
    console.log(`\nLoad average after: ${loadAverage()}`);
  } finally {
    await varnish?.stop();
    await stopChildren(children);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
