// `npm run bench:varnish`: one stored article page through Varnish (deploy/varnish.vcl) against
// nginx serving the same bytes and against the built-in server answering it itself, measured
// interleaved (varnish, nginx, built-in, varnish, ...) so a change in what the machine is doing
// hits all three. The load comes from wrk (Debian's package), not from this process; each
// contender gets the same cores: Varnish's 2 thread pools, nginx with as many workers as the
// built-in server has processes. Prints medians and the CPU each spent a request; asserts nothing.
// BENCH_ARTICLES (2000), BENCH_SECONDS (5 per run), BENCH_ROUNDS (3), WEB_PROCESSES (2), WRK (wrk).
import { type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Admin, median, requireBuild, SERVER_MAIN, siteEnv, startProcess } from './site.ts';
import { runWrk, type WrkRun } from './wrk-run.ts';
import { ENCODINGS, loadAverage, generateComparedSite, nginxRoot, rawGet, startNginx, stopChildren } from './peer-servers.ts';
import { reservePort, startVarnish, TEST_PURGE_SECRET, varnishMissing, type TestVarnish } from '../tests/support/varnish.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const PROCESSES = Number(process.env.WEB_PROCESSES ?? 2);
const CONNECTIONS = 64;
const WRK = { wrk: process.env.WRK || 'wrk', threads: 2, connections: CONNECTIONS, seconds: SECONDS };
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
        WEB_PROCESSES: String(PROCESSES),
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
      PROCESSES,
      children,
    );
    const contenders = [
      { name: 'varnish', url: `${varnishOrigin}${pagePath}`, port: varnishPort, path: pagePath, pid: varnish.pid },
      { name: 'nginx', url: `http://127.0.0.1:${nginxPort}/page`, port: nginxPort, path: '/page', pid: children.at(-1)!.pid! },
      { name: 'built-in', url: `${site.origin}${pagePath}`, port: sitePort, path: pagePath, pid: child.pid! },
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
      `\nLoad: wrk, 2 threads, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds interleaved; Varnish 2 thread pools, ` +
        `nginx ${PROCESSES} worker(s), the built-in server ${PROCESSES} process(es); all on the same ${os.cpus().length} cores (wrk too)`,
    );
    const wrkArgs = (accept: string) => ['-H', `Accept-Encoding: ${accept}`];
    for (const c of contenders) await runWrk(WRK, c.url, wrkArgs('br'), c.pid, 2);
    const rows: string[] = [];
    for (const { name, accept } of ENCODINGS) {
      const runs: Record<string, WrkRun[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
      for (let round = 0; round < ROUNDS; round++)
        for (const c of contenders) runs[c.name]!.push(await runWrk(WRK, c.url, wrkArgs(accept), c.pid));
      const summary = (who: string) => {
        const r = runs[who]!;
        return {
          rps: median(r.map((x) => x.rps)),
          p50: median(r.map((x) => x.p50)),
          p99: median(r.map((x) => x.p99)),
          cpuUs: median(r.map((x) => (x.serverCpu / x.requests) * 1e6)),
          errors: r.reduce((n, x) => n + x.failed, 0),
        };
      };
      const [v, n, b] = contenders.map((c) => summary(c.name));
      const line = (label: string, s: ReturnType<typeof summary>) =>
        `${label} ${s.rps.toFixed(0).padStart(6)} req/s p50 ${s.p50.toFixed(2)} ms p99 ${s.p99.toFixed(2)} ms CPU ${s.cpuUs.toFixed(0)} µs`;
      rows.push(
        `  ${name.padEnd(8)} ${line('varnish', v!)} | ${line('nginx', n!)} | ${line('built-in', b!)}`,
        `           varnish/nginx ${(v!.rps / n!.rps).toFixed(2)} (target >= 0.9x), built-in/nginx ${(b!.rps / n!.rps).toFixed(2)}; failed ${v!.errors}/${n!.errors}/${b!.errors}; ` +
          `runs ${contenders.map((c) => `${c.name} [${runs[c.name]!.map((x) => `${x.rps.toFixed(0)} at load ${x.load.toFixed(1)}`).join(', ')}]`).join(', ')}`,
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
