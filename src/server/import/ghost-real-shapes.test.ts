import { describe, expect, it } from 'vitest';
import { mapGhost, parseGhostJson } from './ghost-map.ts';

// Shapes met in Ghost's own export fixtures (Ghost 1 to 4), rebuilt here small and by hand: a
// post whose export has no `html`, so its mobiledoc is rendered. The fixtures themselves are
// not in the repository.

function exportOf(mobiledoc: object) {
  return JSON.stringify({
    db: [
      {
        meta: { exported_on: 1700000000000, version: '4.1.0' },
        data: {
          posts: [
            {
              id: 'q1',
              title: 'Osmosis',
              slug: 'osmosis',
              mobiledoc: JSON.stringify({ version: '0.3.1', atoms: [], markups: [], ...mobiledoc }),
              html: null,
              type: 'post',
              status: 'published',
              visibility: 'public',
              published_at: '2022-05-01T08:00:00.000Z',
              created_at: '2022-04-30T08:00:00.000Z',
            },
          ],
          tags: [],
          posts_tags: [],
          users: [],
          posts_authors: [],
          settings: [{ key: 'title', value: 'Lab notes' }],
        },
      },
    ],
  });
}

const htmlOf = (mobiledoc: object) => mapGhost(parseGhostJson(exportOf(mobiledoc))).articles[0]!.html;

describe('Ghost exports as Ghost writes them', () => {
  it('keeps the raw HTML of a Markdown card (an embed), not its markup as visible text', () => {
    const html = htmlOf({
      cards: [
        [
          'markdown',
          {
            markdown:
              'Watch this:\n\n<iframe width="560" height="315" src="https://www.youtube.com/embed/abc123" allowfullscreen></iframe>\n',
          },
        ],
        ['markdown', { markdown: '<script src="https://widgets.example/w.js?a=1&b=2"></script>\n' }],
      ],
      sections: [
        [10, 0],
        [10, 1],
      ],
    });
    expect(html).toContain(
      '<iframe width="560" height="315" src="https://www.youtube.com/embed/abc123" allowfullscreen></iframe>',
    );
    // Left as HTML for the sanitizer to judge (it removes a script), never turned into text.
    expect(html).toContain('<script src=');
    expect(html).not.toContain('&lt;');
  });

  it('keeps the link of a Ghost 4 image card (its `href`)', () => {
    const html = htmlOf({
      cards: [
        [
          'image',
          { src: 'https://cdn.example/cell.jpg', width: 800, height: 600, href: 'https://example.org/cells', caption: 'A cell' },
        ],
      ],
      sections: [[10, 0]],
    });
    expect(html).toBe(
      '<figure><a href="https://example.org/cells"><img src="https://cdn.example/cell.jpg" alt=""></a><figcaption>A cell</figcaption></figure>',
    );
  });

  it('leaves out the empty paragraph the editor keeps after a closing card', () => {
    const html = htmlOf({
      cards: [['hr', {}]],
      sections: [
        [1, 'p', [[0, [], 0, 'Diffusion.']]],
        [10, 0],
        [1, 'p', []],
      ],
    });
    expect(html).toBe('<p>Diffusion.</p>\n<hr>');
  });

  it('imports a post only members or paying members read on the old site as a draft, and says so', () => {
    const text = exportOf({ cards: [], sections: [[1, 'p', [[0, [], 0, 'For members.']]]] });
    const paid = JSON.parse(text) as { db: Array<{ data: { posts: Array<Record<string, unknown>> } }> };
    const post = paid.db[0]!.data.posts[0]!;
    const variants = ['paid', 'members', 'public'].map(
      (visibility) =>
        mapGhost(
          parseGhostJson(
            JSON.stringify({ ...paid, db: [{ ...paid.db[0], data: { ...paid.db[0]!.data, posts: [{ ...post, visibility }] } }] }),
          ),
        ).articles[0]!,
    );
    expect(variants.map((a) => a.status)).toEqual(['draft', 'draft', 'published']);
    expect(variants[0]!.notes).toContain('for paid members only on the old site: imported as a draft');
    expect(variants[1]!.notes).toContain('for members only on the old site: imported as a draft');
  });
});
