import { describe, expect, it } from 'vitest';
import { toEditorShapes } from './editor-shapes.ts';
import { sanitizeArticleHtml } from '../content/sanitize.ts';

describe("the old site's HTML in the editor's shapes", () => {
  it("turns a figure's caption into a paragraph of its own, in italics, and drops the wrapper", () => {
    const ghost =
      '<figure class="kg-card kg-image-card kg-card-hascaption"><img src="/a.png" alt="A leaf"><figcaption><span>A leaf</span> under glass</figcaption></figure>';
    expect(toEditorShapes(ghost)).toBe('<img src="/a.png" alt="A leaf"><p><em><span>A leaf</span> under glass</em></p>');
    const table = '<figure class="wp-block-table"><table><tr><td>1</td></tr></table></figure>';
    expect(toEditorShapes(table)).toBe('<table><tr><td>1</td></tr></table>');
    // Before, the sanitizer left the caption's text loose beside the image.
    expect(sanitizeArticleHtml(toEditorShapes(ghost))).toContain('<p><em><span>A leaf</span> under glass</em></p>');
  });

  it("keeps a code block's language as the editor writes it, from the class on <code> or on <pre>", () => {
    expect(toEditorShapes('<pre><code class="language-python">x = 1</code></pre>')).toBe(
      '<pre data-language="python"><code>x = 1</code></pre>',
    );
    expect(toEditorShapes('<pre class="wp-block-code lang-JS"><code>let a</code></pre>')).toBe(
      '<pre data-language="js"><code>let a</code></pre>',
    );
    expect(toEditorShapes('<pre class="wp-block-code"><code>plain</code></pre>')).toBe(
      '<pre class="wp-block-code"><code>plain</code></pre>',
    );
    expect(sanitizeArticleHtml(toEditorShapes('<pre><code class="language-python">x</code></pre>'))).toContain(
      'data-language="python"',
    );
  });

  it('writes a subscript of digits and signs in subscript characters, and leaves any other alone', () => {
    expect(toEditorShapes('6CO<sub>2</sub> + 6H<sub>2</sub>O, SO<sub>4</sub><sub>2-</sub>')).toBe('6CO₂ + 6H₂O, SO₄₂₋');
    expect(toEditorShapes('x<sub>i</sub>')).toBe('x<sub>i</sub>');
  });

  it("turns a Ghost bookmark card into its titled link and its description quoted, leaving the other site's pictures", () => {
    const card =
      '<figure class="kg-card kg-bookmark-card"><a class="kg-bookmark-container" href="https://example.com/page"><div class="kg-bookmark-content">' +
      '<div class="kg-bookmark-title">Example Domain</div><div class="kg-bookmark-description">For use in illustrative examples.</div>' +
      '<div class="kg-bookmark-metadata"><img class="kg-bookmark-icon" src="https://example.com/favicon.ico" alt=""><span class="kg-bookmark-author">IANA</span></div></div>' +
      '<div class="kg-bookmark-thumbnail"><img src="https://example.com/thumb.jpg" alt=""></div></a><figcaption>Worth a read</figcaption></figure>';
    expect(toEditorShapes(`<p>Before</p>${card}<p>After <a href="/x">x</a></p>`)).toBe(
      '<p>Before</p><p><a href="https://example.com/page">Example Domain</a></p>' +
        '<blockquote><p>For use in illustrative examples.</p></blockquote><p><em>Worth a read</em></p><p>After <a href="/x">x</a></p>',
    );
  });
});
