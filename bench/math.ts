// `npm run bench:math`: what 200 formulas cost an article's pre-render. Prints; asserts nothing.
// Each figure sets the article with 200 formulas against the same article with each formula left
// as its plain source text (medians of interleaved rounds, the ratio; target: 2x or less). "Cold"
// is a render whose formulas were never typeset before (every round's formulas differ), "warm" a
// render again of the same page, as after a comment or another article's save (the renderer keeps
// typeset formulas: src/server/content/render-math.ts).
//  1. The article body as the page render makes it (render-article.ts), in process, cold and warm.
//  2. The article's whole page on the built server, as the pre-render renders it: the admin's
//     preview of the article kept as a draft (the same view, rendered on each request and never
//     stored), cold after each save with new formulas, then warm.
//  3. End to end on the built server: the published article saved (PUT) with new formulas, the
//     API's live_ms (the pre-render of its page and of the lists and feed it appears in, stored).
// BENCH_ROUNDS (30), BENCH_FORMULAS (200).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderArticleHtml } from '../src/server/content/render-article.ts';
import { clearFormulaCache } from '../src/server/content/render-math.ts';
import { sanitizeArticleHtml } from '../src/server/content/sanitize.ts';
import { blogBodyFrom, type Json } from '../tests/support/builders.ts';
import { generateSite } from './generate-site.ts';
import { logInAdmin, median, requireBuild, SERVER_MAIN, siteEnv, startProcess } from './site.ts';

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

/** The same article twice: with formulas, and with each formula's source as plain text. `round` makes each formula new. */
function articles(round = 0): { withMath: string; without: string } {
  const withMath: string[] = [];
  const without: string[] = [];
  for (let i = 0; i < FORMULAS; i++) {
    const tex = `${TEX[i % TEX.length]!.replace('2', String(2 + (i % 7)))} + ${round * FORMULAS + i}`;
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

const ratioLine = (what: string, rounds: number, a: number[], b: number[], digits = 2) =>
  `${what} (${rounds} rounds, medians): ${FORMULAS} formulas ${median(a).toFixed(digits)} ms, ` +
  `without them ${median(b).toFixed(digits)} ms: ${(median(a) / median(b)).toFixed(2)}x (target 2x or less).`;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function inProcess(withMath: string, without: string): Promise<void> {
  for (let i = 0; i < 3; i++) await Promise.all([renderArticleHtml(withMath), renderArticleHtml(without)]);
  const cold: number[] = [];
  const warm: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    clearFormulaCache();
    cold.push(await time(() => renderArticleHtml(withMath)));
    warm.push(await time(() => renderArticleHtml(withMath)));
    plain.push(await time(() => renderArticleHtml(without)));
  }
  console.log(ratioLine('Article body render in process, cold', ROUNDS, cold, plain));
  console.log(ratioLine('Article body render in process, warm', ROUNDS, warm, plain));
}

async function overHttp(): Promise<void> {
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
    const initial = articles(0);
    const draft = { ...base, status: 'draft' };
    const math = await save('POST', '/api/blogs', { ...base, title: 'Bench: 200 formulas', content: initial.withMath });
    const plain = await save('POST', '/api/blogs', { ...base, title: 'Bench: no formulas', content: initial.without });
    const mathDraft = await save('POST', '/api/blogs', {
      ...draft,
      title: 'Bench: 200 formulas (draft)',
      content: initial.withMath,
    });
    const plainDraft = await save('POST', '/api/blogs', {
      ...draft,
      title: 'Bench: no formulas (draft)',
      content: initial.without,
    });
    const render = async (id: number) => {
      const start = performance.now();
      const response = await fetch(`${origin}/admin/preview/${id}`, { headers });
      const html = await response.text();
      if (!response.ok || !html.includes('Bench:')) throw new Error(`preview ${id}: ${response.status}`);
      return performance.now() - start;
    };
    for (let round = 0; round < 3; round++) await Promise.all([render(mathDraft.id), render(plainDraft.id)]);
    const rounds = Math.max(3, ROUNDS);
    const page = { cold: [] as number[], warm: [] as number[], plain: [] as number[] };
    const live = { math: [] as number[], plain: [] as number[] };
    for (let round = 1; round <= rounds; round++) {
      const next = articles(round);
      await save('PUT', `/api/blogs/${mathDraft.id}`, { ...draft, title: 'Bench: 200 formulas (draft)', content: next.withMath });
      await save('PUT', `/api/blogs/${plainDraft.id}`, { ...draft, title: 'Bench: no formulas (draft)', content: next.without });
      page.cold.push(await render(mathDraft.id));
      page.warm.push(await render(mathDraft.id));
      page.plain.push(await render(plainDraft.id));
      live.math.push(
        (await save('PUT', `/api/blogs/${math.id}`, { ...base, title: `Bench: 200 formulas ${round}`, content: next.withMath }))
          .live_ms,
      );
      live.plain.push(
        (await save('PUT', `/api/blogs/${plain.id}`, { ...base, title: `Bench: no formulas ${round}`, content: next.without }))
          .live_ms,
      );
    }
    console.log(ratioLine('The article page rendered on the built server, cold', rounds, page.cold, page.plain, 1));
    console.log(ratioLine('The article page rendered on the built server, warm', rounds, page.warm, page.plain, 1));
    console.log(ratioLine('Saved and pre-rendered on the built server, cold (live_ms)', rounds, live.math, live.plain, 1));
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const { withMath, without } = articles();
await inProcess(withMath, without);
await overHttp();
