import { describe, expect, it } from 'vitest';
import { htmlToText, sanitizeArticleHtml } from './sanitize.ts';

const clean = sanitizeArticleHtml;

describe('sanitizeArticleHtml: dangerous markup goes', () => {
  it('removes script and style elements with their content', () => {
    const out = clean('<p>a</p><script>alert(1)</script><style>body{}</style><p>b</p>');
    expect(out).toBe('<p>a</p><p>b</p>');
  });

  it('removes event handler attributes', () => {
    const out = clean('<img src="https://example.org/a.png" onerror="alert(1)"><p onclick="x()">t</p>');
    expect(out).not.toMatch(/onerror|onclick|alert/);
    expect(out).toContain('src="https://example.org/a.png"');
  });

  it.each([
    ['javascript:alert(1)'],
    ['JaVaScRiPt:alert(1)'],
    [' javascript:alert(1)'],
    ['java\tscript:alert(1)'],
    ['&#106;avascript:alert(1)'],
    ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['vbscript:msgbox(1)'],
    ['file:///etc/passwd'],
    ['ftp://example.org/x'],
    ['//evil.example/x'],
  ])('gives the link %j a blank address', (href) => {
    const out = clean(`<a href="${href}">x</a>`);
    // Blank means no usable address: sanitize-html drops an empty href, which leaves an inert link.
    expect(out).toMatch(/^<a (href="" )?rel="noopener noreferrer nofollow ugc" target="_blank">x<\/a>$/);
    expect(out).not.toMatch(/javascript|data:|vbscript|file:|ftp:|evil/i);
  });

  it('drops data: and javascript: image sources', () => {
    expect(clean('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).not.toContain('data:');
    expect(clean('<img src="javascript:alert(1)">')).not.toContain('javascript');
  });

  it('removes svg, math, form, object and embed', () => {
    const out = clean(
      '<svg onload="alert(1)"><circle/></svg><math></math><form action="/x"><input></form><object data="x"></object><embed src="x">',
    );
    expect(out).not.toMatch(/<svg|<math|<form|<input|<object|<embed|onload/);
  });
});

describe('sanitizeArticleHtml: what the editor makes stays', () => {
  it.each([['https://example.org/page'], ['http://example.org/page'], ['mailto:someone@example.org'], ['tel:+441234567890']])(
    'keeps the %s link, opening safely',
    (href) => {
      const out = clean(`<a href="${href}">x</a>`);
      expect(out).toContain(`href="${href}"`);
      expect(out).toContain('rel="noopener noreferrer nofollow ugc"');
    },
  );

  it('keeps site-relative links and anchors, opening in the same tab and followed', () => {
    expect(clean('<a href="/blog/3">x</a>')).toBe('<a href="/blog/3">x</a>');
    expect(clean('<a href="#part-2">x</a>')).toBe('<a href="#part-2">x</a>');
    expect(clean('<a href="/blog/3" target="_blank" rel="nofollow">x</a>')).toBe('<a href="/blog/3">x</a>');
  });

  it('keeps headings, emphasis, lists and images', () => {
    const html = '<h2>T</h2><p><strong>b</strong> <em>i</em> <u>u</u></p><ul><li>x</li></ul>';
    expect(clean(html)).toBe(html);
    expect(clean('<img src="https://example.org/a.png" alt="A">')).toMatch(/<img src="https:\/\/example\.org\/a\.png" alt="A"/);
  });

  it('keeps a YouTube embed iframe', () => {
    const out = clean('<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" srcdoc="<script>alert(1)</script>"></iframe>');
    expect(out).toContain('<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"');
    expect(out).not.toContain('srcdoc');
    expect(clean('<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"></iframe>')).toContain('<iframe');
  });

  it.each([
    ['https://evil.example/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com.evil.example/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ'],
    ['javascript:alert(1)'],
    ['http://www.youtube.com/embed/dQw4w9WgXcQ'],
  ])('drops any other iframe (%s)', (src) => {
    expect(clean(`<iframe src="${src}"></iframe>`)).not.toContain('<iframe');
  });

  it('keeps colour and background colour on spans and drops other styles', () => {
    const out = clean(
      '<span style="color: #ff0000; background-color: rgb(1, 2, 3); position: fixed; background-image: url(https://x)">c</span>',
    );
    expect(out).toContain('color:#ff0000');
    expect(out).toContain('background-color:rgb(1, 2, 3)');
    expect(out).not.toMatch(/position|url\(/);
    expect(clean('<p style="color:red">p</p>')).toBe('<p>p</p>');
  });

  it('drops a colour value that tries to smuggle anything else', () => {
    const out = clean('<span style="color: expression(alert(1))">c</span>');
    expect(out).not.toContain('expression');
  });
});

describe('sanitizeArticleHtml: study blocks', () => {
  it('keeps what the editor writes for math, code, tables, tasks, callouts and footnotes', () => {
    const html =
      '<p><span data-type="math_inline">a^2</span> <code>x</code></p><div data-type="math_block">\\frac{1}{2}</div>' +
      '<pre data-language="python"><code>print(1)</code></pre>' +
      '<table><tbody><tr data-is-header="true"><th style="text-align:center">A</th></tr><tr><td style="text-align:right">1</td></tr></tbody></table>' +
      '<ul><li data-item-type="task" data-checked="true"><p>t</p></li></ul>' +
      '<div data-callout="example"><p>e</p></div>' +
      '<p>n<sup data-type="footnote_reference" data-label="1">1</sup></p>' +
      '<dl data-type="footnote_definition" data-label="1"><dt>1</dt><dd><p>d</p></dd></dl><blockquote><p>q</p></blockquote><hr />';
    expect(clean(html)).toBe(html);
  });

  it('drops any other value of the markers and any other attribute on the new elements', () => {
    const out = clean(
      '<div data-type="x" class="evil" style="position:fixed" onclick="a()">d</div><span data-type="script">s</span>' +
        '<td style="text-align: left; background: red">c</td><pre data-language="a b"><code>x</code></pre><li data-checked="yes">l</li>',
    );
    expect(out).not.toMatch(/data-type="|class=|position|onclick|background|data-language|data-checked="yes"/);
  });

  it.each([
    ['maction', '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)"><mtext>x</mtext></maction></math>'],
    ['annotation-xml', '<math><annotation-xml encoding="text/html"><img src=x onerror=alert(1)></annotation-xml></math>'],
    ['mtext style', '<math><mtext><style><img src=x onerror=alert(1)></style></mtext></math>'],
    ['math in a formula span', '<span data-type="math_inline"><math><mi onclick="alert(1)">x</mi></math></span>'],
  ])('neutralises the MathML vector %s: no MathML is accepted, formulas are stored as TeX', (_, vector) => {
    const out = clean(vector);
    expect(out).not.toMatch(/<math|<maction|<annotation|<style|onerror|onclick|javascript/i);
  });
});

describe('htmlToText', () => {
  it('strips tags, decodes entities and separates blocks', () => {
    expect(htmlToText('<h2>Title</h2><p>a &amp; b</p><p>c&nbsp;d</p>')).toBe('Title: a & b. c d');
  });

  it('never runs a heading into the text after it (card excerpts)', () => {
    const html = '<p>Work through the examples with a pencil in hand.</p><h2>Key ideas</h2><p>Start from definitions</p>';
    expect(htmlToText(html)).toBe('Work through the examples with a pencil in hand. Key ideas: Start from definitions');
  });

  it("keeps the writer's own punctuation and treats nested blocks as one end", () => {
    expect(htmlToText('<h3>Why?</h3><ul><li><p>one</p></li><li>two;</li></ul><p>three <br>four</p>')).toBe(
      'Why? one. two; three four',
    );
    expect(htmlToText('<table><tr><th>Term</th><td>Meaning</td></tr><tr><td>x</td><td>y</td></tr></table>')).toBe(
      'Term Meaning. x y',
    );
  });

  it('indexes formula sources and table text', () => {
    expect(
      htmlToText('<p>Roots: <span data-type="math_inline">x^2-1</span></p><table><tr><th>Na</th><td>11</td></tr></table>'),
    ).toBe('Roots: x^2-1. Na 11');
  });

  it('decodes each entity once and ignores a private-use character in the input', () => {
    expect(htmlToText('<p>&amp;lt;b&amp;gt; \uE000h</p><p>end</p>')).toBe('&lt;b&gt; h. end');
  });
});
