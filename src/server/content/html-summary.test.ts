import { describe, expect, it, vi } from 'vitest';
import * as sanitize from './sanitize.ts';
import { htmlToText, sanitizeArticleHtml } from './sanitize.ts';
import { summarizeHtml, summarizeText } from './html-summary.ts';

vi.mock('./sanitize.ts', async (original) => {
  const module = await original<typeof import('./sanitize.ts')>();
  return { ...module, htmlToText: vi.fn(module.htmlToText) };
});

/** A small deterministic generator (the same articles in every run). */
function randomFrom(seed: number) {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

const WORDS = [
  'a',
  'b>c',
  'x&y',
  '"quoted"',
  "it's",
  'naïve',
  '数学',
  'ﬁne',
  '&amp;',
  '<tag>',
  '😀',
  'end.',
  'why?',
  'Key',
  '  ',
];

/** An article as the editor might send it: every kind of block, text with what must be escaped. */
function article(seed: number, blocks: number): string {
  const random = randomFrom(seed);
  const text = (n: number) => Array.from({ length: n }, () => random.pick(WORDS)).join(' ');
  const inline = () =>
    random.pick([
      () => text(1 + Math.floor(random.next() * 40)),
      () => `<strong>${text(3)}</strong> ${text(5)}`,
      () => `<a href="https://example.org/?q=${text(1)}&amp;r=>">${text(2)}</a>`,
      () => `<img src="https://example.org/x.png" alt="${text(30)}">`,
      () => `<code>${text(4)}</code>`,
      () => `${text(2)}<br>${text(2)}`,
    ])();
  const block = () =>
    random.pick([
      () => `<p>${inline()} ${inline()}</p>`,
      () => `<h2>${text(3)}</h2>`,
      () => `<ul><li><p>${inline()}</p></li><li>${inline()}<ol><li>${text(3)}</li></ol></li></ul>`,
      () => `<blockquote><p>${inline()}</p></blockquote>`,
      () => `<pre><code>if (a > b &amp;&amp; c < d) { ${text(20)} }</code></pre>`,
      () => `<table><tr><th>${text(1)}</th><td>${text(6)}</td></tr></table>`,
      () => '<hr>',
      () => `<p>${'<em>'.repeat(3)}${text(2)}${'</em>'.repeat(3)}</p>`,
    ])();
  return sanitizeArticleHtml(Array.from({ length: blocks }, block).join('\n'));
}

describe("an article's summary read from its HTML's opening", () => {
  it('is the summary of the whole text, for every length of summary and article', () => {
    let opened = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const html = article(seed, 1 + (seed % 60));
      for (const max of [160, 20, 1500, 9000]) {
        expect(summarizeHtml(html, max), `article ${seed}, ${max} characters`).toBe(summarizeText(htmlToText(html), max));
        if (max === 160 && html.length > 2048) opened++;
      }
    }
    // Most of these went the short way: their HTML is longer than the first opening read.
    expect(opened).toBeGreaterThan(200);
  });

  it('parses only the opening of a long article', () => {
    const html = article(7, 2000);
    expect(html.length).toBeGreaterThan(100_000);
    const parse = vi.mocked(sanitize.htmlToText);
    parse.mockClear();
    expect(summarizeHtml(html)).toBe(summarizeText(htmlToText(html)));
    const parsed = parse.mock.calls.slice(0, -1).reduce((sum, [part]) => sum + part.length, 0);
    expect(parsed).toBeLessThan(10_000);
  });

  it('reads the whole of a short article, or of one whose text is short', () => {
    expect(summarizeHtml('<p>Short.</p>')).toBe('Short.');
    const pictures = sanitizeArticleHtml(
      `${'<p><img src="https://example.org/a.png" alt=""></p>'.repeat(200)}<p>At last, words.</p>`,
    );
    expect(summarizeHtml(pictures)).toBe('At last, words.');
    expect(summarizeHtml('')).toBe('');
  });
});
