import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { IMPORT_MESSAGES } from './limits.ts';
import { mapGhost, parseGhostJson } from './ghost-map.ts';

// The shape of a Ghost 4 export (db[0].data), written for this test (Ghost's own fixtures are not
// committed; see the import README).
const exportText = JSON.stringify({
  db: [
    {
      meta: { exported_on: 1616560573131, version: '4.1.0' },
      data: {
        posts: [
          {
            id: 'p1',
            title: 'Cells',
            slug: 'cells',
            html: '<p>Mitochondria <a href="__GHOST_URL__/atoms/">see atoms</a></p>',
            feature_image: '__GHOST_URL__/content/images/2021/03/cell.png',
            status: 'published',
            published_at: '2021-03-24T04:34:10.000Z',
            created_at: '2021-03-01T00:00:00.000Z',
            type: 'post',
          },
          {
            id: 'p2',
            title: 'Atoms',
            slug: 'atoms',
            html: '<p>Draft text</p>',
            status: 'draft',
            published_at: null,
            created_at: '2021-03-02T00:00:00.000Z',
            type: 'post',
          },
          {
            id: 'p3',
            title: 'Only mobiledoc',
            slug: 'm',
            html: null,
            mobiledoc: JSON.stringify({
              version: '0.3.1',
              atoms: [],
              cards: [['markdown', { markdown: 'A **bold** move' }]],
              markups: [['strong']],
              sections: [
                [1, 'p', [[0, [0], 1, 'Mitosis']]],
                [10, 0],
              ],
            }),
            status: 'published',
            published_at: '2021-03-03T00:00:00.000Z',
            type: 'post',
          },
          {
            id: 'p4',
            title: 'About',
            slug: 'about',
            html: '<p>Me</p>',
            status: 'published',
            published_at: '2021-03-03T00:00:00.000Z',
            type: 'page',
          },
        ],
        tags: [
          { id: 't1', name: 'Biology' },
          { id: 't2', name: '#internal' },
          { id: 't3', name: 'Science' },
        ],
        posts_tags: [
          { post_id: 'p1', tag_id: 't3', sort_order: 1 },
          { post_id: 'p1', tag_id: 't2', sort_order: 0 },
          { post_id: 'p1', tag_id: 't1', sort_order: 0 },
        ],
        users: [{ id: 'u1', name: 'Fixture Ghosty' }],
        posts_authors: [{ post_id: 'p1', author_id: 'u1', sort_order: 0 }],
        settings: [{ key: 'title', value: 'Testing Export Fixtures' }],
      },
    },
  ],
});

describe('mapGhost', () => {
  it('maps posts with their primary tag, feature image, status and published_at', () => {
    const site = mapGhost(parseGhostJson(exportText));
    expect(site.source).toBe('ghost:Testing Export Fixtures');
    expect(site.articles.map((a) => a.title)).toEqual(['Cells', 'Atoms', 'Only mobiledoc']);
    const [cells, atoms, mobiledoc] = site.articles;
    expect(mobiledoc!.html).toBe('<p><strong>Mitosis</strong></p>\n<p>A <strong>bold</strong> move</p>');
    expect(mobiledoc!.notes).toContain('rendered from its mobiledoc document (the export had no html)');
    expect(cells).toMatchObject({
      author: 'Fixture Ghosty',
      category: 'Biology',
      otherTerms: ['Science'],
      status: 'published',
      createdAt: '2021-03-24T04:34:10.000Z',
      oldPaths: ['/cells'],
    });
    expect(cells!.imageUrl).toMatch(/\/content\/images\/2021\/03\/cell\.png$/);
    expect(cells!.html).toContain(`${site.origin}/atoms/`);
    expect(atoms).toMatchObject({ status: 'draft', createdAt: '2021-03-02T00:00:00.000Z', category: null });
    expect(site.skipped).toEqual([]);
    // The page named About is offered as this site's About page.
    expect(site.infoPages).toEqual([{ slug: 'about', sourceId: 'p4', title: 'About', html: '<p>Me</p>' }]);
  });

  it('refuses JSON that is not a Ghost export, or nested 10,000 deep', () => {
    expect(() => parseGhostJson('{"db":[{"data":{}}]}')).toThrow(IMPORT_MESSAGES.notGhost);
    expect(() => parseGhostJson(`{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`)).toThrow(AppError);
    expect(() => parseGhostJson('{"db": [')).toThrow(/not valid JSON/);
  });
});
