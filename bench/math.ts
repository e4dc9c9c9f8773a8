// `npm run bench:math`: what 200 formulas cost an article's pre-render. Prints; asserts nothing.
//  1. The article body as the page render makes it (src/server/content/render-article.ts), in
//     process: the same article with 200 formulas and with each formula left as its plain source
//     text, interleaved rounds, medians, the ratio (target: 2x or less).
//  2. End to end on the built server: each article saved (PUT) in turn, the API's live_ms (the
//     pre-render of its page and of the lists it appears in, then stored), medians and the ratio.
// BENCH_ROUNDS (30 in process, a fifth of that over HTTP), BENCH_FORMULAS (200).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderArticleHtml } from '../src/server/content/render-article.ts';
import { sanitizeArticleHtml } from '../src/server/content/sanitize.ts';
import { blogBodyFrom, type Json } from '../tests/support/builders.ts';
import { generateSite } from './generate-site.ts';
import { logInAdmin, requireBuild, SERVER_MAIN, siteEnv, startProcess } from './site.ts';

const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 30));
const FORMULAS = Number(process.env.BENCH_FORMULAS ?? 200);
const ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };
const TEX = [
  'x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}',
  'E = mc^2',
  '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
  '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
  'F = G\\frac{m_1 m_2}{r^2}',
  '\\mathrm{pH} = -\\log_{10}[\\mathrm{H^+}]',
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The same article twice: with formulas, and with each formula's source as plain text. */
function articles(): { withMath: string; without: string } {
  const withMath: string[] = [];
  const without: string[] = [];
  for (let i = 0; i < FORMULAS; i++) {
    const tex = TEX[i % TEX.length]!.replace('2', String(2 + (i % 7)));
    const text = `<p>Step ${i + 1}: from the rule above we get `;
    const escaped = tex.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    if (i % 4 === 0) {
      withMath.push(`${text}</p><div data-type="math_block">${escaped}</div>`);
      without.push(`${text}</p><div>${escaped}</div>`);
    } else {
      withMath.push(`${text}<span data-type="math_inline">${escaped}</span>, so the next line follows.</p>`);
      without.push(`${text}<span>${escaped}</span>, so the next line follows.</p>`);
    }
  }
  return { withMath: sanitizeArticleHtml(withMath.join('\n')), without: sanitizeArticleHtml(without.join('\n')) };
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function inProcess(withMath: string, without: string): Promise<void> {
  for (let i = 0; i < 3; i++) await Promise.all([renderArticleHtml(withMath), renderArticleHtml(without)]);
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    a.push(await time(() => renderArticleHtml(withMath)));
    b.push(await time(() => renderArticleHtml(without)));
  }
  const ratio = median(a) / median(b);
  console.log(
    `Article body render, in process (${ROUNDS} rounds, medians): ${FORMULAS} formulas ${median(a).toFixed(2)} ms, ` +
      `without them ${median(b).toFixed(2)} ms: ${ratio.toFixed(2)}x (target 2x or less).`,
  );
}

async function overHttp(withMath: string, without: string): Promise<void> {
  requireBuild();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-math-'));
  const databasePath = path.join(dir, 'site.sqlite');
  await generateSite(databasePath, { articles: 20, categories: 2, adminEmail: ADMIN.email, adminPassword: ADMIN.password });
  const { child, started } = startProcess([SERVER_MAIN], siteEnv(dir, databasePath, ADMIN), /Pre-rendered \d+ pages/);
  try {
    const { origin } = await started;
    const token = await logInAdmin(origin, ADMIN);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const [first] = (await (await fetch(`${origin}/api/blogs`)).json()) as Json[];
    const save = async (method: string, pathName: string, body: Json) => {
      const response = await fetch(`${origin}${pathName}`, { method, headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`${method} ${pathName}: ${response.status} ${await response.text()}`);
      return (await response.json()) as Json & { id: number; live_ms: number };
    };
    const base = blogBodyFrom(first!);
    const math = await save('POST', '/api/blogs', { ...base, title: 'Bench: 200 formulas', content: withMath });
    const plain = await save('POST', '/api/blogs', { ...base, title: 'Bench: no formulas', content: without });
    const a: number[] = [];
    const b: number[] = [];
    const rounds = Math.max(3, Math.round(ROUNDS / 5));
    for (let round = 0; round < rounds; round++) {
      a.push(
        (await save('PUT', `/api/blogs/${math.id}`, { ...base, title: `Bench: 200 formulas ${round}`, content: withMath }))
          .live_ms,
      );
      b.push(
        (await save('PUT', `/api/blogs/${plain.id}`, { ...base, title: `Bench: no formulas ${round}`, content: without }))
          .live_ms,
      );
    }
    console.log(
      `Saved and pre-rendered on the built server (${rounds} rounds, medians of live_ms): ${FORMULAS} formulas ` +
        `${median(a).toFixed(1)} ms, without them ${median(b).toFixed(1)} ms: ${(median(a) / median(b)).toFixed(2)}x.`,
    );
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const { withMath, without } = articles();
await inProcess(withMath, without);
await overHttp(withMath, without);
