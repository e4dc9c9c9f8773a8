import { describe, expect, it } from 'vitest';
import type { Blog } from '../db/repositories/blogs.ts';
import { tagName } from '../page-store/site-tags.ts';
import { changedTags, takenDownTags } from './blog-publication.ts';

const NOW = '2026-01-10T12:00:00.000Z';
const LATER = '2026-02-01T00:00:00.000Z';
const EARLIER = '2026-01-01T00:00:00.000Z';

const article = (overrides: Partial<Blog> = {}): Blog =>
  ({ id: 7, status: 'published', publish_at: null, pdf_drive_link: null, category_id: 2, ...overrides }) as Blog;

const names = (before: Blog | null, after: Blog | null) => takenDownTags(before, after, NOW).map(tagName);

describe('takenDownTags', () => {
  it('names the article when readers could see it and no longer can', () => {
    // link:7: its neighbours' Older and Newer links to it; in-block:7: the home pages' ticker and
    // top-viewed list.
    const shownAnywhere = ['blog:7', 'link:7', 'in-block:7'];
    expect(names(article(), article({ status: 'draft' }))).toEqual(shownAnywhere);
    expect(names(article(), article({ status: 'scheduled', publish_at: LATER }))).toEqual(shownAnywhere);
    expect(names(article(), null)).toEqual(shownAnywhere);
    // Its PDF leaves /download, which does not carry the article's own tag.
    expect(names(article({ pdf_drive_link: '/uploads/a.pdf' }), null)).toEqual([...shownAnywhere, 'downloads']);
  });

  it('names nothing for an edit, a publish, or an article readers never saw', () => {
    expect(names(article(), article({ category_id: 3 }))).toEqual([]);
    expect(names(article({ status: 'draft' }), article())).toEqual([]);
    expect(names(article({ status: 'scheduled', publish_at: EARLIER }), article({ status: 'published' }))).toEqual([]);
    expect(names(article({ status: 'scheduled', publish_at: LATER }), null)).toEqual([]);
    expect(names(null, article())).toEqual([]);
  });
});

describe('changedTags', () => {
  const changed = (before: Blog | null, after: Blog | null) => changedTags(before, after, NOW).map(tagName);
  const shown = (overrides: Partial<Blog> = {}) =>
    article({ title: 'Cells', content: '<p>Text</p>', created_at: EARLIER, ...overrides });

  it("leaves the neighbours' links alone for an edit of an article's text, picture or files", () => {
    const tags = changed(shown(), shown({ content: '<p>Other text</p>', image: '/uploads/new.webp' }));
    expect(tags).toContain('blog:7');
    expect(tags).not.toContain('link:7');
    expect(tags).not.toContain('in-block:7');
  });

  it("reaches the neighbours' links when its title, place or visibility changes", () => {
    expect(changed(shown(), shown({ title: 'Cells, revised' }))).toContain('link:7');
    expect(changed(shown(), shown({ category_id: 3 }))).toContain('link:7');
    expect(changed(shown(), shown({ created_at: NOW }))).toContain('link:7');
    expect(changed(shown({ status: 'draft' }), shown())).toContain('link:7');
    expect(changed(shown(), shown({ status: 'draft' }))).toContain('link:7');
    expect(changed(null, shown())).toContain('link:7');
    expect(changed(shown(), null)).toContain('link:7');
  });

  it("reaches the home pages' ticker and top-viewed list when its title or date changes", () => {
    expect(changed(shown(), shown({ title: 'Cells, revised' }))).toContain('in-block:7');
    expect(changed(shown(), shown({ created_at: NOW }))).toContain('in-block:7');
    expect(changed(shown(), shown({ content: '<p>Other text</p>' }))).not.toContain('in-block:7');
  });

  it("moves the Downloads pages only when an article's PDF joins or leaves them, or its date changes", () => {
    const withPdf = (overrides: Partial<Blog> = {}) => shown({ pdf_drive_link: '/uploads/a.pdf', ...overrides });
    // A title: the page showing its row carries its blog tag.
    expect(changed(withPdf(), withPdf({ title: 'Cells, revised' }))).not.toContain('downloads');
    expect(changed(shown(), withPdf())).toContain('downloads');
    expect(changed(withPdf(), shown())).toContain('downloads');
    expect(changed(null, withPdf())).toContain('downloads');
    expect(changed(withPdf(), withPdf({ status: 'draft' }))).toContain('downloads');
    expect(changed(withPdf(), withPdf({ created_at: NOW }))).toContain('downloads');
    expect(changed(shown(), shown({ title: 'Other' }))).not.toContain('downloads');
  });

  it('names nothing for a draft readers never saw', () => {
    expect(changed(shown({ status: 'draft' }), shown({ status: 'draft', title: 'Other' }))).toEqual([]);
  });
});
