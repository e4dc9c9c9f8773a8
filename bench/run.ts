// `npm run bench`: the page store's figures on a generated site (issue "Pre-rendered pages").
// Prints figures; asserts nothing. BENCH_ARTICLES (10000), BENCH_SECONDS (10), BENCH_EDITS (50).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { generateSite } from './generate-site.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const EDITS = Number(process.env.BENCH_EDITS ?? 50);
const CONNECTIONS = 50;
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };
const root = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];

function startChild(
  args: string[],
  env: Record<string, string>,
  waitFor: RegExp,
): Promise<{ child: ChildProcess; origin: string; output: () => string }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const origin = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (origin && waitFor.test(output)) resolve({ child, origin, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}\n${output}`)));
  });
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
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
  if (!fs.existsSync(path.join(root, process.env.DIST_DIR || 'dist', 'server/entry.mjs')))
    throw new Error('Run `npm run build` first.');
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

  const env = {
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_PATH: databasePath,
    UPLOADS_DIR: path.join(dir, 'uploads'),
    PAGE_STORE_DIR: path.join(dir, 'pages'),
    SEED_DEMO: 'false',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    NODE_ENV: 'production',
  };
  console.log('Starting the server and pre-rendering every public page...');
  const site = await startChild(['src/server/front/main.ts'], env, /Pre-rendered \d+ pages/);
  const prerender = /Pre-rendered (\d+) pages in ([\d.]+) s \((\d+) pages\/s\)/.exec(site.output())!;
  const rss = rssMb(site.child.pid!);

  const articleId = Math.floor(ARTICLES / 2);
  const articleUrl = `${site.origin}/blog/${articleId}`;
  const page = await fetch(articleUrl, { headers: { 'accept-encoding': 'identity' } });
  const bodyFile = path.join(dir, 'article.html');
  fs.writeFileSync(bodyFile, Buffer.from(await page.arrayBuffer()));
  console.log(`Article page: ${fs.statSync(bodyFile).size} bytes, store says ${page.headers.get('x-page-store')}`);

  const staticServer = await startChild(['bench/static-server.ts', bodyFile], {}, /listening/);
  const uncached = await startChild(['src/server/front/main.ts'], { ...env, PAGE_STORE: 'off' }, /listening/);

  // Each server gets the same short warm-up first (JIT, memory), so the first measured run is not penalised.
  for (const url of [articleUrl, staticServer.origin + '/']) await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  console.log(`Load: ${CONNECTIONS} connections, ${SECONDS} s each`);
  const stored = await load(articleUrl);
  const storedBr = await load(articleUrl, { 'accept-encoding': 'br' });
  const plain = await load(staticServer.origin + '/');
  const rendered = await load(`${uncached.origin}/blog/${articleId}`);
  staticServer.child.kill();
  uncached.child.kill();

  console.log(`Publish-to-live: ${EDITS} edits of /blog/${articleId}`);
  const login = await fetch(`${site.origin}/api/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`Admin login failed: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const blog = (await (await fetch(`${site.origin}/api/blogs/${articleId}`)).json()) as Record<string, unknown>;
  const body = {
    title: String(blog.title),
    content: String(blog.content),
    category_id: blog.category_id,
    image: blog.image ?? '',
    pdf_link: blog.pdf_drive_link ?? '',
    isVideo: '0',
    video_link: '',
    payment_link: '',
    form_name: '',
    form_link: '',
  };
  const clientMs: number[] = [];
  const serverMs: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    const title = `Edited title ${i} ${Date.now()}`;
    const started = performance.now();
    const put = await fetch(`${site.origin}/api/blogs/${articleId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...body, title }),
    });
    if (!put.ok) throw new Error(`Edit failed: ${put.status} ${await put.text()}`);
    const answer = (await put.json()) as { live_ms: number };
    const check = await fetch(articleUrl);
    const html = await check.text();
    clientMs.push(performance.now() - started);
    serverMs.push(answer.live_ms);
    if (!html.includes(title) || check.headers.get('x-page-store') !== 'HIT') {
      throw new Error(`Edit ${i} was not live when its call answered (${check.headers.get('x-page-store')})`);
    }
  }
  const rssAfter = rssMb(site.child.pid!);
  site.child.kill();

  const row = (name: string, r: Awaited<ReturnType<typeof load>>) =>
    `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   errors ${r.errors}`;
  console.log('\nResults');
  console.log(`  Site: ${ARTICLES} articles, 10 categories, ${os.cpus().length} cores, Node ${process.version}`);
  console.log(`  Full pre-render: ${prerender[1]} pages in ${prerender[2]} s = ${prerender[3]} pages/s`);
  console.log(`  Server memory (RSS) after pre-render: ${rss.toFixed(0)} MB; after the edits: ${rssAfter.toFixed(0)} MB`);
  console.log(row('stored article page (identity)', stored));
  console.log(row('stored article page (brotli)', storedBr));
  console.log(row('minimal Node static server', plain));
  console.log(row('uncached render (PAGE_STORE=off)', rendered));
  console.log(`  stored / static throughput: ${(stored.rps / plain.rps).toFixed(2)}`);
  console.log(
    `  publish-to-live (PUT answered + page checked): p50 ${percentile(clientMs, 50).toFixed(1)} ms, p95 ${percentile(clientMs, 95).toFixed(1)} ms`,
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
