import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { buildBlogBody, type Json } from '../support/builders.ts';
import { sendJson } from './http-support.ts';

/**
 * Study blocks over HTTP on the built server: saved through the API, typeset in the pre-rendered
 * page (MathML, highlighted code, framed table), the math stylesheet only where there is math,
 * formula sources and table text found by search, and MathML sent as input dropped.
 */
let server: TestServer;
let headers: Record<string, string>;
let categoryId: number;
let mathArticleId = 0;

async function create(overrides: Json): Promise<number> {
  const answer = await sendJson(server, 'POST', '/api/blogs', buildBlogBody(categoryId, overrides), headers);
  expect(answer.status, answer.text).toBe(201);
  return (answer.body as { id: number }).id;
}

const page = async (id: number) => (await fetch(server.url(`/blog/${id}`))).text();

beforeAll(async () => {
  server = await startServer({ env: { SEED_DEMO: 'false' } });
  headers = bearer(await loginAsAdmin(server));
  const category = await sendJson(server, 'POST', '/api/categories', { name: 'Chemistry', sequence: 0 }, headers);
  categoryId = (category.body as { id: number }).id;
});

afterAll(async () => {
  await server?.stop();
});

describe('study blocks on the public page', () => {
  it('typesets formulas to MathML, highlights code and frames tables, linking the math stylesheet', async () => {
    const id = await create({
      title: 'Moles and molar mass',
      content:
        '<p>One mole holds <span data-type="math_inline">N_\\mathrm{Avogadro} = 6.022 \\times 10^{23}</span> particles.</p>' +
        '<div data-type="math_block">n = \\frac{m}{M}</div>' +
        '<pre data-language="python"><code>moles = mass / molar_mass</code></pre>' +
        '<table><tbody><tr data-is-header="true"><th>Element</th><th>Molar mass</th></tr><tr><td>Strontium</td><td>87.62</td></tr></tbody></table>',
    });
    mathArticleId = id;
    const html = await page(id);
    expect(html).toContain('<annotation encoding="application/x-tex">n = \\frac{m}{M}</annotation>');
    expect(html).toMatch(/<div class="math-display" tabindex="0"><math display="block"/);
    expect(html).toMatch(/<pre class="shiki shiki-themes github-light-default github-dark-default"/);
    expect(html).toMatch(/<div class="table-scroll" tabindex="0"><table><thead><tr><th>Element<\/th>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/_astro\/math\.[\w-]+\.css"/);
    expect(html).not.toMatch(/<script[^>]*>[^<]*(temml|katex)/i);
  });

  it('links no math stylesheet on an article without formulas', async () => {
    const html = await page(await create({ title: 'Plain words', content: '<p>No formulas here.</p>' }));
    expect(html).not.toMatch(/_astro\/math\.|Temml/);
  });

  it("serves the math stylesheet with a self-hosted math font, tried after the reader's own", async () => {
    const html = await page(mathArticleId);
    const href = /<link rel="stylesheet" href="(\/_astro\/math\.[\w-]+\.css)"/.exec(html)?.[1];
    const css = await (await fetch(server.url(href!))).text();
    const face = /@font-face\s*{[^}]*font-family:\s*["']?Study Math["']?[^}]*}/.exec(css)?.[0];
    expect(face).toMatch(/local\(["']?Cambria Math["']?\)/);
    const font = /url\(["']?(\/_astro\/STIXMath-Regular\.[\w-]+\.otf)["']?\)/.exec(face!)?.[1];
    expect(font).toBeDefined();
    expect(css).toMatch(/math\s*{[^}]*font-family:\s*["']?Study Math["']?,\s*math/);
    const answer = await fetch(server.url(font!), { headers: { 'accept-encoding': 'br' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('font/otf');
    expect(answer.headers.get('content-encoding')).toBe('br');
    expect(
      Buffer.from(await answer.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('OTTO');
  });

  it('finds articles by the words of a formula and of a table', async () => {
    for (const word of ['Avogadro', 'Strontium']) {
      const answer = await fetch(server.url(`/api/blogs?search=${word}`));
      const found = (await answer.json()) as { title: string }[];
      expect(found.map((blog) => blog.title)).toContain('Moles and molar mass');
    }
  });

  it("carries the formulas as MathML in the article's RSS item", async () => {
    const xml = await (await fetch(server.url('/rss.xml'))).text();
    const item = xml.split('<item>').find((part) => part.includes('<title>Moles and molar mass</title>'));
    expect(item).toMatch(/<content:encoded>.*&lt;math display=&quot;block&quot;.*n = \\frac\{m\}\{M\}/s);
    expect(item).toContain('&lt;pre class=&quot;shiki');
  });

  it('drops MathML sent as input: formulas are stored as TeX only', async () => {
    const id = await create({
      title: 'Hostile maths',
      content:
        '<p><math><maction actiontype="statusline" xlink:href="javascript:alert(1)"><mtext>x</mtext></maction></math></p>' +
        '<p><math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math></p>',
    });
    const stored = (await (await fetch(server.url(`/api/blogs/${id}`))).json()) as { content: string };
    expect(stored.content).not.toMatch(/<math|<maction|<annotation|onerror|javascript/i);
    expect(await page(id)).not.toMatch(/<maction|annotation-xml|onerror=|javascript:/i);
  });
});
