import { describe, expect, it, vi } from 'vitest';

// Which of the typesetting libraries have been loaded (a module's factory runs at its first import).
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('temml', async (original) => (loaded.add('temml'), original()));
vi.mock('shiki', async (original) => (loaded.add('shiki'), original()));
vi.mock('shiki/engine/javascript', async (original) => (loaded.add('shiki/engine/javascript'), original()));

const { renderArticleHtml } = await import('./render-article.ts');

describe('renderArticleHtml: the libraries only some articles need', () => {
  it('loads Temml with the first formula and Shiki with the first code block, not before', async () => {
    await renderArticleHtml('<h2>Plain</h2><p>Words, a <a href="/x">link</a> and a table.</p><table><tr><td>1</td></tr></table>');
    expect([...loaded]).toEqual([]);

    const math = await renderArticleHtml('<p>Solve <span data-type="math_inline">x^2 = 4</span>.</p>');
    expect(math.html).toContain('<math');
    expect([...loaded]).toEqual(['temml']);

    const code = await renderArticleHtml('<pre data-language="python"><code>x = 1</code></pre>');
    expect(code.html).toContain('class="shiki');
    expect([...loaded].sort()).toEqual(['shiki', 'shiki/engine/javascript', 'temml']);
  });
});
