// `npm run bench:import`: how long `npm run import` takes for a large WordPress file. Generates a
// WXR of BENCH_POSTS (5,000) published posts (eight paragraphs, a link and a bold word each, one of
// 20 categories, one approved comment each), imports it into an empty database with the script
// users run, then imports it again (nothing to do), and prints the wall clock, the CPU time and
// the peak memory of each run (GNU time) beside the target. Asserts nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { wxrDocument } from '../src/server/import/wxr-test-file.ts';
import { loadAverage } from './peer-servers.ts';
import { root } from './site.ts';

const POSTS = Number(process.env.BENCH_POSTS ?? 5000);
const TARGET_SECONDS = 60;

function post(i: number): string {
  const day = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
  const paragraphs = Array.from(
    { length: 8 },
    (_, p) =>
      `<!-- wp:paragraph --><p>Paragraph ${p + 1} of study note ${i}: the <strong>key idea</strong> explained with a worked example, ` +
      `then a second sentence that <a href="https://old.example/?p=${(i % POSTS) + 1}">links to another note</a>.</p><!-- /wp:paragraph -->`,
  ).join('\n');
  return `<item><title><![CDATA[Study note ${i}: a topic worth revising]]></title><dc:creator><![CDATA[ann]]></dc:creator>
<wp:post_id>${i}</wp:post_id><wp:post_name>study-note-${i}</wp:post_name><wp:post_type>post</wp:post_type><wp:status>publish</wp:status>
<wp:post_date>${day}</wp:post_date><wp:post_date_gmt>${day}</wp:post_date_gmt>
<category domain="category" nicename="subject-${i % 20}"><![CDATA[Subject ${i % 20}]]></category>
<content:encoded><![CDATA[${paragraphs}]]></content:encoded>
<wp:comment><wp:comment_id>${i}</wp:comment_id><wp:comment_author><![CDATA[Reader ${i}]]></wp:comment_author>
<wp:comment_date_gmt>${day}</wp:comment_date_gmt><wp:comment_content><![CDATA[Thank you for note ${i}.]]></wp:comment_content>
<wp:comment_approved>1</wp:comment_approved><wp:comment_type>comment</wp:comment_type></wp:comment></item>`;
}

function timed(file: string, env: NodeJS.ProcessEnv): { seconds: number; cpu: number; peakMb: number; report: string } {
  const started = performance.now();
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', 'TIME %U %S %M', process.execPath, '--import', './scripts/require-node.mjs', 'scripts/import.ts', file],
    { cwd: root, env, encoding: 'utf8' },
  );
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`the import failed:\n${run.stdout}\n${run.stderr}`);
  const [user, system, kb] = /TIME ([\d.]+) ([\d.]+) (\d+)/.exec(run.stderr)!.slice(1).map(Number) as [number, number, number];
  return { seconds, cpu: user + system, peakMb: kb / 1024, report: run.stdout.split('\n').slice(0, 3).join('\n  ') };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-import-bench-'));
try {
  console.log(`Load average before: ${loadAverage()}`);
  const file = path.join(dir, `${POSTS}.xml`);
  fs.writeFileSync(file, wxrDocument(Array.from({ length: POSTS }, (_, i) => post(i + 1)).join('\n')));
  console.log(`A WXR of ${POSTS} posts: ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
  const env = {
    ...process.env,
    DATABASE_PATH: path.join(dir, 'site.sqlite'),
    UPLOADS_DIR: path.join(dir, 'uploads'),
    PAGE_STORE_DIR: path.join(dir, 'pages'),
    NODE_ENV: 'production',
  };
  for (const name of ['first import', 'the same file again']) {
    const result = timed(file, env);
    console.log(
      `${name}: ${result.seconds.toFixed(1)} s wall clock, ${result.cpu.toFixed(1)} s CPU, peak ${result.peakMb.toFixed(0)} MB` +
        (name === 'first import'
          ? ` (target < ${TARGET_SECONDS} s: ${result.seconds < TARGET_SECONDS ? 'met' : 'MISSED'})`
          : '') +
        `\n  ${result.report}`,
    );
  }
  console.log(`Load average after: ${loadAverage()}`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
