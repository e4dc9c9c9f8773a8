// `npm run bench` (first half; bench/peer.ts is the second): the page store's own figures on a
// generated site: pre-render, memory, stored against uncached answers, publish-to-live. The
// comparison with a real peer (nginx on the same bytes) is bench/peer.ts.
// Prints figures; asserts nothing. BENCH_ARTICLES (10000), BENCH_SECONDS (10), BENCH_EDITS (50).
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { generateSite } from './generate-site.ts';
import { fetchWriteBodies, logInAdmin, requireBuild, rssMb, SERVER_MAIN, siteEnv, type Started, startProcess } from './site.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const EDITS = Number(process.env.BENCH_EDITS ?? 50);
const CONNECTIONS = 50;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };
const children: ChildProcess[] = [];

function startChild(args: string[], env: Record<string, string>, waitFor: RegExp): Promise<Started> {
  const { child, started } = startProcess(args, env, waitFor);
  children.push(child);
  return started;
}

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-bench-'));
  const databasePath = path.join(dir, 'site.sqlite');
  console.log(`Generating ${ARTICLES} articles in 10 categories...`);
  const t = performance.now();
  await generateSite(databasePath, {
    articles: ARTICLES,
    categories: 10,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  console.log(`  generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const env = siteEnv(dir, databasePath, ADMIN);
  console.log('Starting the server and pre-rendering every public page...');
  const site = await startChild([SERVER_MAIN], env, /Pre-rendered \d+ pages/);
  const prerender = /Pre-rendered (\d+) pages in ([\d.]+) s \((\d+) pages\/s\)/.exec(site.output())!;
  const rss = rssMb(site.child.pid!);

  const articleId = Math.floor(ARTICLES / 2);
  const articleUrl = `${site.origin}/blog/${articleId}`;
  const page = await fetch(articleUrl, { headers: { 'accept-encoding': 'identity' } });
  const pageBytes = (await page.arrayBuffer()).byteLength;
  console.log(`Article page: ${pageBytes} bytes, store says ${page.headers.get('x-page-store')}`);

  const uncached = await startChild([SERVER_MAIN], { ...env, PAGE_STORE: 'off' }, /listening/);

  // A short warm-up first (JIT, memory), so the first measured run is not penalised.
  await autocannon({ url: articleUrl, connections: CONNECTIONS, duration: 2 });
  console.log(`Load: ${CONNECTIONS} connections, ${SECONDS} s each`);
  const stored = await load(articleUrl);
  const storedBr = await load(articleUrl, { 'accept-encoding': 'br' });
  const rendered = await load(`${uncached.origin}/blog/${articleId}`);
  uncached.child.kill();

  // The newest article: its edit must be live on its page, home page 1, /blogs page 1 and its
  // category's page 1 when the save answers.
  const newest = ARTICLES;
  console.log(`Publish-to-live: ${EDITS} edits of /blog/${newest} (the newest article)`);
  const token = await logInAdmin(site.origin, ADMIN);
  const body = (await fetchWriteBodies(site.origin, [newest])).get(newest)!;
  const hotPages = [`/blog/${newest}`, '/', '/blogs', `/blogs?category=${String(body.category_id)}`];
  const clientMs: number[] = [];
  const serverMs: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const title = `Edited title ${i} ${Date.now()}`;
    const started = performance.now();
    const put = await fetch(`${site.origin}/api/blogs/${newest}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...body, title }),
    });
    if (!put.ok) throw new Error(`Edit failed: ${put.status} ${await put.text()}`);
    const answer = (await put.json()) as { live_ms: number };
    clientMs.push(performance.now() - started);
    serverMs.push(answer.live_ms);
    for (const hot of hotPages) {
      const check = await fetch(`${site.origin}${hot}`);
      const html = await check.text();
      if (!html.includes(title) || check.headers.get('x-page-store') !== 'HIT') {
        throw new Error(`Edit ${i} was not live on ${hot} when its call answered (${check.headers.get('x-page-store')})`);
      }
    }
  }
  const rssAfter = rssMb(site.child.pid!);
  site.child.kill();

  const row = (name: string, r: Awaited<ReturnType<typeof load>>) =>
    `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   errors ${r.errors}`;
  console.log('\nResults');
  console.log(`  Site: ${ARTICLES} articles, 10 categories, ${os.cpus().length} cores, Node ${process.version}`);
  console.log(`  Full pre-render: ${prerender[1]} pages in ${prerender[2]} s = ${prerender[3]} pages/s`);
  console.log(
    `  Server memory (RSS, process tree) after pre-render: ${rss.toFixed(0)} MB; after the edits: ${rssAfter.toFixed(0)} MB`,
  );
  console.log(row('stored article page (identity)', stored));
  console.log(row('stored article page (brotli)', storedBr));
  console.log(row('uncached render (PAGE_STORE=off)', rendered));
  console.log(
    `  publish-to-live (PUT answered; article, home, /blogs and category page 1 then checked fresh): p50 ${percentile(clientMs, 50).toFixed(1)} ms, p95 ${percentile(clientMs, 95).toFixed(1)} ms`,
  );
  console.log(
    `  server-side live_ms: p50 ${percentile(serverMs, 50).toFixed(1)} ms, p95 ${percentile(serverMs, 95).toFixed(1)} ms`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const child of children) if (child.exitCode === null) child.kill();
  });
