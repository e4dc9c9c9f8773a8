import { describe, expect, it } from 'vitest';
import type { Blog } from '../db/repositories/blogs.ts';
import { tagName } from '../page-store/site-tags.ts';
import { takenDownTags } from './blog-publication.ts';

const NOW = '2026-01-10T12:00:00.000Z';
const LATER = '2026-02-01T00:00:00.000Z';
const EARLIER = '2026-01-01T00:00:00.000Z';

const article = (overrides: Partial<Blog> = {}): Blog =>
  ({ id: 7, status: 'published', publish_at: null, pdf_drive_link: null, category_id: 2, ...overrides }) as Blog;

const names = (before: Blog | null, after: Blog | null) => takenDownTags(before, after, NOW).map(tagName);

describe('takenDownTags', () => {
  it('names the article when readers could see it and no longer can', () => {
    expect(names(article(), article({ status: 'draft' }))).toEqual(['blog:7']);
    expect(names(article(), article({ status: 'scheduled', publish_at: LATER }))).toEqual(['blog:7']);
    expect(names(article(), null)).toEqual(['blog:7']);
    // Its PDF leaves /download, which does not carry the article's own tag.
    expect(names(article({ pdf_drive_link: '/uploads/a.pdf' }), null)).toEqual(['blog:7', 'downloads']);
  });

  it('names nothing for an edit, a publish, or an article readers never saw', () => {
    expect(names(article(), article({ category_id: 3 }))).toEqual([]);
    expect(names(article({ status: 'draft' }), article())).toEqual([]);
    expect(names(article({ status: 'scheduled', publish_at: EARLIER }), article({ status: 'published' }))).toEqual([]);
    expect(names(article({ status: 'scheduled', publish_at: LATER }), null)).toEqual([]);
    expect(names(null, article())).toEqual([]);
  });
});
