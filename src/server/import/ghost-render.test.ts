import { describe, expect, it } from 'vitest';
import { renderLexical, renderMobiledoc } from './ghost-render.ts';

describe('renderMobiledoc', () => {
  it('renders sections, nested markups, lists, atoms and cards as Ghost shows them', () => {
    const notes: string[] = [];
    const html = renderMobiledoc(
      {
        version: '0.3.1',
        atoms: [['soft-return', '', {}]],
        markups: [['a', ['href', 'https://example.org/?a=1&b=2']], ['em'], ['strong']],
        cards: [
          ['image', { src: '__GHOST_URL__/content/images/2021/03/cell.png', alt: 'A cell', caption: 'Under <em>glass</em>' }],
          ['code', { code: 'if (a < b) {}', language: 'js' }],
          ['hr', {}],
          ['signup', {}],
          ['html', { html: '<table><tr><td>1</td></tr></table>' }],
        ],
        sections: [
          [1, 'h2', [[0, [], 0, 'Cells & tissues']]],
          [
            1,
            'p',
            [
              [0, [0, 1], 1, 'link '],
              [0, [2], 2, 'bold'],
              [1, [], 0, 0],
              [0, [], 0, 'after 👋 مرحبا'],
            ],
          ],
          [3, 'ol', [[[0, [], 0, 'one']], [[0, [], 0, 'two']]]],
          [10, 0],
          [10, 1],
          [10, 2],
          [10, 3],
          [10, 4],
        ],
      },
      notes,
    );
    expect(html.split('\n')).toEqual([
      '<h2>Cells &amp; tissues</h2>',
      '<p><a href="https://example.org/?a=1&amp;b=2"><em>link </em><strong>bold</strong></a><br>after 👋 مرحبا</p>',
      '<ol><li>one</li><li>two</li></ol>',
      '<figure><img src="__GHOST_URL__/content/images/2021/03/cell.png" alt="A cell"><figcaption>Under <em>glass</em></figcaption></figure>',
      '<pre><code class="language-js">if (a &lt; b) {}</code></pre>',
      '<hr>',
      '<table><tr><td>1</td></tr></table>',
    ]);
    expect(notes).toEqual(['a Ghost "signup" card was left out']);
  });
});

describe('renderLexical', () => {
  it('renders paragraphs, formatted text, headings, lists, links and cards', () => {
    const notes: string[] = [];
    const text = (value: string, format = 0) => ({ type: 'extended-text', text: value, format });
    const html = renderLexical(
      JSON.stringify({
        root: {
          type: 'root',
          children: [
            { type: 'extended-heading', tag: 'h3', children: [text('Vectors')] },
            {
              type: 'paragraph',
              children: [
                text('bold', 1),
                text(' and '),
                text('both', 3),
                { type: 'linebreak' },
                { type: 'link', url: '/x', children: [text('a <link>')] },
              ],
            },
            { type: 'list', listType: 'bullet', children: [{ type: 'listitem', children: [text('item', 16)] }] },
            { type: 'markdown', markdown: '| a |\n|---|\n| 1 |' },
            { type: 'image', src: '/content/images/v.png', alt: 'v', caption: '' },
            { type: 'paywall' },
          ],
        },
      }),
      notes,
    );
    expect(html.split('\n').slice(0, 3)).toEqual([
      '<h3>Vectors</h3>',
      '<p><strong>bold</strong> and <em><strong>both</strong></em><br><a href="/x">a &lt;link&gt;</a></p>',
      '<ul><li><code>item</code></li></ul>',
    ]);
    expect(html).toContain('<table>');
    expect(html).toContain('<figure><img src="/content/images/v.png" alt="v"></figure>');
    expect(notes).toEqual(['a Ghost "paywall" card was left out']);
  });

  it('refuses a document nested deeper than a file may be', async () => {
    const { mapGhost, parseGhostJson } = await import('./ghost-map.ts');
    let deep: Record<string, unknown> = { type: 'text', text: 'x' };
    for (let i = 0; i < 200; i++) deep = { type: 'paragraph', children: [deep] };
    const exported = JSON.stringify({
      db: [
        {
          data: {
            posts: [
              {
                id: 'p',
                title: 'Deep',
                status: 'published',
                published_at: '2024-01-01T00:00:00Z',
                lexical: JSON.stringify({ root: { children: [deep] } }),
              },
            ],
          },
        },
      ],
    });
    const site = mapGhost(parseGhostJson(exported));
    expect(site.articles).toHaveLength(0);
    expect(site.skipped[0]!.reason).toMatch(/could not be read: .*levels deep/);
  });
});

describe('a bookmark card', () => {
  it('keeps its title as the link and its description quoted', () => {
    const bookmark = {
      url: 'https://example.com/a?b=1&c=2',
      metadata: { title: 'Cells <explained>', description: 'A long read & more' },
    };
    const html = renderMobiledoc(
      { version: '0.3.1', atoms: [], markups: [], cards: [['bookmark', bookmark]], sections: [[10, 0]] },
      [],
    );
    expect(html).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2">Cells &lt;explained&gt;</a></p><blockquote><p>A long read &amp; more</p></blockquote>',
    );
  });
});
