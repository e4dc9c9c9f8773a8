// `npm run bench:render`: what one render costs, by kind of page, on a generated site. Prints;
// asserts nothing. The build's Astro bundle is loaded in one thread as a render worker loads it
// (its own read-only connection, the worker's SQLite cache), and pages drawn at random from every
// public page are rendered one after another and narrowed to their policy as a worker does, with
// no compression: CPU time of the process a page (`process.cpuUsage`, V8's helper threads
// included), its median by kind of page. Each round runs in a fresh process.
// Two builds are compared by naming the other one: BENCH_COMPARE_DIST=path/to/dist runs the
// rounds interleaved (this build, the other, this, the other, ...) and prints both.
// BENCH_ARTICLES (10000), BENCH_PAGES (3000 a round), BENCH_ROUNDS (3).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateSite } from './generate-site.ts';
import { distDir, median, requireBuild, root } from './site.ts';

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const PAGES = Number(process.env.BENCH_PAGES ?? 3000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WARM_PAGES = 200;

interface RoundFigures {
  /** Mean CPU µs a page over every page drawn. */
  mean: number;
  /** Median CPU µs a page, by kind (the key with its numbers written N). */
  byKind: Record<string, { pages: number; median: number }>;
  /** Mean µs a page of narrowing the policy alone. */
  narrow: number;
}

/** One round, in this process: the build at `dist` renders `PAGES` random pages of the site in `dir`. */
async function renderRound(dir: string, dist: string): Promise<RoundFigures> {
  const load = <T>(file: string) => import(pathToFileURL(path.join(dist, 'node/src/server', file)).href) as Promise<T>;
  const { loadConfig } = await load<typeof import('../src/server/config.ts')>('config.js');
  const { openDatabase } = await load<typeof import('../src/server/db/client.ts')>('db/client.js');
  const { setAppContext, noPageCache } = await load<typeof import('../src/server/context.ts')>('context.js');
  const { getAstroRender, renderInProcess } =
    await load<typeof import('../src/server/page-store/astro-render.ts')>('page-store/astro-render.js');
  const { answerDigestsInThread } =
    await load<typeof import('../src/server/page-store/sync-digest.ts')>('page-store/sync-digest.js');
  const { narrowAnswerPolicy } =
    await load<typeof import('../src/server/page-store/narrow-policy.ts')>('page-store/narrow-policy.js');
  const { listPublicUrls } = await load<typeof import('../src/server/page-store/site-map.ts')>('page-store/site-map.js');
  // As render-worker.ts reads: the database's state looked at once a render (a build before it had no such scope).
  const readCache = await load<Partial<typeof import('../src/server/db/read-cache.ts')>>('db/read-cache.js');
  const asWorker = <T>(job: () => Promise<T>): Promise<T> =>
    readCache.readAtJobStart ? readCache.readAtJobStart(db, job) : job();
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_PATH: path.join(dir, 'data.db'),
    UPLOADS_DIR: path.join(dir, 'uploads'),
    PAGE_STORE_DIR: path.join(dir, 'pages'),
    PUBLIC_ORIGIN: 'http://127.0.0.1:4321',
  });
  answerDigestsInThread();
  // As render-worker.ts opens its connection.
  const { db, sqlite } = openDatabase(config.databasePath, { readOnly: true, cacheKib: 2048 });
  setAppContext({ config, db, sqlite, pageCache: noPageCache });
  await import(pathToFileURL(path.join(dist, 'server/entry.mjs')).href);
  const render = getAstroRender()!;
  const keys = (await listPublicUrls(db)).filter((key) => !/\.(xml|txt|webmanifest)$/.test(key));
  // The same pages in every round and for both builds.
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const drawn = Array.from({ length: WARM_PAGES + PAGES }, () => keys[Math.floor(random() * keys.length)]!);
  for (const key of drawn.slice(0, WARM_PAGES)) {
    const rendered = await asWorker(() => renderInProcess(render, config.publicOrigin, key));
    narrowAnswerPolicy(rendered.headers, rendered.body);
  }
  const byKind = new Map<string, number[]>();
  let narrowMicros = 0;
  const started = process.cpuUsage();
  for (const key of drawn.slice(WARM_PAGES)) {
    const before = process.cpuUsage();
    const rendered = await asWorker(() => renderInProcess(render, config.publicOrigin, key));
    const narrowing = process.cpuUsage();
    narrowAnswerPolicy(rendered.headers, rendered.body);
    const after = process.cpuUsage();
    const kind = key.replace(/\d+/g, 'N');
    const list = byKind.get(kind) ?? [];
    list.push(after.user + after.system - before.user - before.system);
    byKind.set(kind, list);
    narrowMicros += after.user + after.system - narrowing.user - narrowing.system;
  }
  const total = process.cpuUsage(started);
  sqlite.close();
  return {
    mean: (total.user + total.system) / PAGES,
    byKind: Object.fromEntries([...byKind].map(([kind, micros]) => [kind, { pages: micros.length, median: median(micros) }])),
    narrow: narrowMicros / PAGES,
  };
}

function runRound(dir: string, dist: string): RoundFigures {
  const result = spawnSync(
    process.execPath,
    ['--import', './scripts/require-node.mjs', 'bench/render.ts', '--round', dir, dist],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
  const line = result.stdout.split('\n').find((l) => l.startsWith('{'));
  if (result.status !== 0 || !line) throw new Error(`a round on ${dist} failed:\n${result.stderr}`);
  return JSON.parse(line) as RoundFigures;
}

async function main(): Promise<void> {
  const builds = [distDir, ...(process.env.BENCH_COMPARE_DIST ? [path.resolve(process.env.BENCH_COMPARE_DIST)] : [])];
  for (const dist of builds)
    if (!fs.existsSync(path.join(dist, 'server/entry.mjs'))) throw new Error(`No build at ${dist}: run \`npm run build\` first.`);
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'));
  try {
    console.log(`Generating ${ARTICLES} articles in 10 categories...`);
    await generateSite(path.join(dir, 'data.db'), {
      articles: ARTICLES,
      categories: 10,
      adminEmail: 'bench@example.com',
      adminPassword: 'bench-password-123',
    });
    console.log(
      `Machine: ${os.cpus().length} cores, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    const rounds = new Map<string, RoundFigures[]>(builds.map((dist) => [dist, []]));
    for (let round = 1; round <= ROUNDS; round++)
      for (const dist of builds) {
        const figures = runRound(dir, dist);
        rounds.get(dist)!.push(figures);
        console.log(
          `  round ${round}, ${path.relative(root, dist) || dist}: ${figures.mean.toFixed(0)} µs a page (mean of ${PAGES}), ` +
            `the policy ${figures.narrow.toFixed(0)} µs; load average ${os.loadavg()[0]!.toFixed(1)}`,
        );
      }
    console.log(`\nCPU a page, medians of ${ROUNDS} round(s) (${PAGES} random pages a round, no compression)`);
    const kinds = Object.entries(rounds.get(builds[0]!)![0]!.byKind)
      .sort((a, b) => b[1].pages - a[1].pages)
      .map(([kind]) => kind);
    const column = (dist: string, pick: (figures: RoundFigures) => number | undefined) => {
      const values = rounds
        .get(dist)!
        .map(pick)
        .filter((value): value is number => value !== undefined);
      return values.length ? `${median(values).toFixed(0)} µs` : '-';
    };
    const rows: Array<[string, (figures: RoundFigures) => number | undefined]> = [
      ['every page (mean)', (figures) => figures.mean],
      ...kinds.map((kind): [string, (figures: RoundFigures) => number | undefined] => [
        kind,
        (figures) => figures.byKind[kind]?.median,
      ]),
      ['the policy alone', (figures) => figures.narrow],
    ];
    const names = builds.map((dist) => path.relative(root, dist) || dist);
    const width = Math.max(12, ...names.map((name) => name.length)) + 2;
    console.log(`  ${'page'.padEnd(28)}${names.map((name) => name.padStart(width)).join('')}`);
    for (const [label, pick] of rows)
      console.log(`  ${label.padEnd(28)}${builds.map((dist) => column(dist, pick).padStart(width)).join('')}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--round') {
  console.log(JSON.stringify(await renderRound(process.argv[3]!, process.argv[4]!)));
  process.exit(0);
} else {
  await main();
}
