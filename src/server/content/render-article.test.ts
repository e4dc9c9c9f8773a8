import { describe, expect, it } from 'vitest';
import { renderArticleHtml } from './render-article.ts';
import { sanitizeArticleHtml } from './sanitize.ts';

/** What the page gets from what the editor sends: sanitized on write, rendered on read. */
const page = async (html: string) => renderArticleHtml(sanitizeArticleHtml(html));

describe('renderArticleHtml: formulas', () => {
  it('typesets inline and display TeX into MathML with the source as annotation', async () => {
    const out = await page(
      '<p>Solve <span data-type="math_inline">ax^2+bx+c=0</span>:</p><div data-type="math_block">x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}</div>',
    );
    expect(out.hasMath).toBe(true);
    expect(out.html).toMatch(
      /<p>Solve <span class="math-inline"><math><semantics>.*<msup><mi>x<\/mi><mn[^>]*>2<\/mn><\/msup>.*<\/math><\/span>:<\/p>/,
    );
    expect(out.html).toContain('<div class="math-display" tabindex="0"><math display="block"');
    expect(out.html).toContain('<msqrt>');
    expect(out.html).toContain('<annotation encoding="application/x-tex">x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}</annotation>');
    expect(out.html).not.toContain('data-type');
  });

  it('frames a long inline formula so it scrolls sideways instead of widening the line', async () => {
    const long = '(a+b)^5 = a^5 + 5a^4b + 10a^3b^2 + 10a^2b^3 + 5ab^4 + b^5';
    const out = await page(
      `<p>Expand <span data-type="math_inline">${long}</span>, then <span data-type="math_inline">x^2</span>.</p>`,
    );
    // Only a frame that may scroll is a tab stop (keyboard users scroll it); a short one is not.
    expect(out.html).toMatch(
      /<p>Expand <span class="math-inline" tabindex="0"><math>.*<\/math><\/span>, then <span class="math-inline"><math>/,
    );
  });

  it('shows invalid TeX as its escaped source with the error marked, and still renders the rest', async () => {
    const out = await page(
      '<p><span data-type="math_inline">\\frac{1}{&lt;b&gt;</span> then <span data-type="math_inline">y</span></p>',
    );
    // Not framed: the message wraps with the text around it.
    expect(out.html).toContain('<p><span class="math-error"><code>\\frac{1}{&lt;b&gt;</code>');
    expect(out.html).toMatch(/formula error: [^<]*expected/i);
    expect(out.html).toContain('<mi>y</mi>');
  });

  it('refuses links smuggled in as TeX (\\href stays red text)', async () => {
    const out = await page('<p><span data-type="math_inline">\\href{javascript:alert(1)}{x}</span></p>');
    expect(out.html).not.toMatch(/href=|<a /);
  });

  it('needs no math stylesheet on a page without formulas', async () => {
    expect((await page('<p>plain</p>')).hasMath).toBe(false);
  });
});

describe('renderArticleHtml: code', () => {
  it('highlights a code block in light and dark at once, escaping the code', async () => {
    const out = await page('<pre data-language="python"><code>if a &lt; b:\n    print("&lt;script&gt;")</code></pre>');
    expect(out.hasCode).toBe(true);
    expect(out.html).toContain('<pre class="shiki shiki-themes github-light-default github-dark-default"');
    expect(out.html).toContain('--shiki-dark:');
    expect(out.html).toContain('&#x3C;script>');
    expect(out.html).not.toContain('<script>');
  });

  it('shows an unknown language as plain text in the same frame', async () => {
    const out = await page('<pre data-language="klingon"><code>qapla</code></pre>');
    expect(out.html).toMatch(/<pre class="shiki[^>]*><code><span class="line"><span[^>]*>qapla<\/span>/);
  });

  it('leaves inline code as it is', async () => {
    expect((await page('<p>Use <code>len(x)</code></p>')).html).toBe('<p>Use <code>len(x)</code></p>');
  });
});

describe('renderArticleHtml: tables, callouts, tasks, footnotes', () => {
  it('puts the header row in a thead, keeps alignment and frames the table for sideways scrolling', async () => {
    const out = await page(
      '<table><tbody><tr data-is-header="true"><th style="text-align: left">Element</th><th style="text-align: right">Z</th></tr>' +
        '<tr><td style="text-align: left">Hydrogen</td><td style="text-align: right">1</td></tr></tbody></table>',
    );
    expect(out.html).toBe(
      '<div class="table-scroll" tabindex="0"><table><thead><tr><th style="text-align:left">Element</th><th style="text-align:right">Z</th></tr></thead>' +
        '<tbody><tr><td style="text-align:left">Hydrogen</td><td style="text-align:right">1</td></tr></tbody></table></div>',
    );
  });

  it('titles a callout by its kind and ignores an unknown kind', async () => {
    const out = await page('<div data-callout="remember"><p>F = ma</p></div><div data-callout="evil"><p>x</p></div>');
    expect(out.html).toBe(
      '<div class="callout callout-remember" role="note"><p class="callout-title">Remember</p><p>F = ma</p></div><div><p>x</p></div>',
    );
  });

  it('ticks task items with disabled, named checkboxes', async () => {
    const out = await page(
      '<ul><li data-item-type="task" data-checked="true"><p>a</p></li><li data-item-type="task" data-checked="false"><p>b</p></li></ul>',
    );
    expect(out.html).toBe(
      '<ul class="task-list"><li class="task-item"><input type="checkbox" disabled aria-label="Done" checked><p>a</p></li>' +
        '<li class="task-item"><input type="checkbox" disabled aria-label="To do"><p>b</p></li></ul>',
    );
  });

  it('numbers footnotes by first reference and links both ways', async () => {
    const out = await page(
      '<p>A<sup data-type="footnote_reference" data-label="b">b</sup> B<sup data-type="footnote_reference" data-label="a">a</sup>' +
        ' C<sup data-type="footnote_reference" data-label="missing">missing</sup></p>' +
        '<dl data-type="footnote_definition" data-label="a"><dt>a</dt><dd><p>First.</p></dd></dl>' +
        '<dl data-type="footnote_definition" data-label="b"><dt>b</dt><dd><p>Second.</p></dd></dl>',
    );
    expect(out.html).toContain('<sup class="footnote-ref"><a href="#fn-b" id="fnref-b" aria-label="Footnote 1">1</a></sup>');
    expect(out.html).toContain('<sup class="footnote-ref"><a href="#fn-a" id="fnref-a" aria-label="Footnote 2">2</a></sup>');
    expect(out.html).toContain(' C<sup>missing</sup>');
    expect(out.html).toMatch(
      /<section class="footnotes" aria-labelledby="footnotes-heading"><h2 id="footnotes-heading">Notes<\/h2><ol><li id="fn-b"><p>Second.<\/p> <a href="#fnref-b" class="footnote-back" aria-label="Back to reference 1">↩<\/a><\/li><li id="fn-a">/,
    );
  });

  it('drops a footnote label that could break out of an id', async () => {
    const out = await page('<p>x<sup data-type="footnote_reference" data-label="a&quot; onmouseover=&quot;x">1</sup></p>');
    expect(out.html).not.toMatch(/onmouseover=|fnref/);
  });
});
