import { describe, expect, it } from 'vitest';
import { cacheFor, hotUrlsFor, pageKeyOf } from './site-map.ts';
import { readTagName, tag, tagName, type PageTag } from './site-tags.ts';

describe('pageKeyOf', () => {
  it('normalises the query to the parameters a page reads', () => {
    expect(pageKeyOf('/')).toBe('/');
    expect(pageKeyOf('/?page=1')).toBe('/');
    expect(pageKeyOf('/?page=3&utm_source=x')).toBe('/?page=3');
    expect(pageKeyOf('/blogs?page=2&category=4')).toBe('/blogs?category=4&page=2');
    expect(pageKeyOf('/blog/12')).toBe('/blog/12');
    expect(pageKeyOf('/blog/12/')).toBe('/blog/12');
    expect(pageKeyOf('/download')).toBe('/download');
  });

  it('ignores parameters no page reads, so random ones never make another stored page (as the VCL does)', () => {
    expect(pageKeyOf('/blog/3?r=8f1c2a')).toBe('/blog/3');
    expect(pageKeyOf('/about?utm_source=x&r=1')).toBe('/about');
    expect(pageKeyOf('/blogs?x=1&category=4&y=2')).toBe('/blogs?category=4');
    expect(pageKeyOf('/?category=4')).toBe('/');
  });

  it('leaves search pages, odd values and other routes to Astro', () => {
    expect(pageKeyOf('/blogs?search=cell')).toBeNull();
    expect(pageKeyOf('/blogs?page=0')).toBeNull();
    expect(pageKeyOf('/blogs?page=-1')).toBeNull();
    expect(pageKeyOf('/blogs?page=1&page=2')).toBeNull();
    expect(pageKeyOf('/blog/abc')).toBeNull();
    expect(pageKeyOf('/blog/0')).toBeNull();
    expect(pageKeyOf('/admin')).toBeNull();
    expect(pageKeyOf('/api/blogs')).toBeNull();
    expect(pageKeyOf('/login')).toBeNull();
  });
});

describe('hotUrlsFor', () => {
  it('names the pages to re-render at once for each tag', () => {
    expect(hotUrlsFor([tag.blog(5)])).toEqual(['/blog/5']);
    expect(hotUrlsFor([tag.comments(5), tag.blog(5)])).toEqual(['/blog/5']);
    expect(hotUrlsFor([tag.list, tag.category(2)]).sort()).toEqual(['/', '/blogs', '/blogs?category=2']);
    expect(hotUrlsFor([tag.downloads])).toEqual(['/download']);
    expect(hotUrlsFor([tag.carousel])).toEqual(['/']);
    expect(hotUrlsFor([tag.infoPages]).sort()).toEqual(['/about', '/contact']);
  });

  it('refreshes the main pages at once for a settings change, like the nav', () => {
    expect(hotUrlsFor([tag.settings]).sort()).toEqual(['/', '/about', '/blogs', '/contact', '/download']);
  });
});

describe('cacheFor', () => {
  it("names a home page's own articles by their blog:ID and those only its ticker and top-viewed list show by their in-block:ID", () => {
    const { tags } = cacheFor.home(
      [
        { id: 1, category_id: 2 },
        { id: 4, category_id: null },
      ],
      [4, 9, 12],
    );
    expect(tags.filter((t) => /^(blog|in-block):/.test(t)).sort()).toEqual([
      'blog:1',
      'blog:4',
      'in-block:12',
      'in-block:4',
      'in-block:9',
    ]);
    // Every new title bumps it: home page 1 is hot only when it shows the article (hotUrlsForChange).
    expect(hotUrlsFor([tag.inBlock(9)])).toEqual([]);
  });

  it('puts the site-wide settings tag on every kind of stored page, HTML or not', () => {
    const declared = [
      cacheFor.home([{ id: 1, category_id: null }], [2]),
      cacheFor.blogList(null, [{ id: 1, category_id: 2 }]),
      cacheFor.blogList(3, []),
      cacheFor.article({ id: 1, category_id: null }),
      cacheFor.downloads([1]),
      cacheFor.navOnly(),
      cacheFor.infoPage(),
      cacheFor.manifest(),
      cacheFor.feed([{ id: 1, category_id: 2 }]),
      cacheFor.sitemap(),
    ];
    for (const { tags } of declared) expect(tags).toContain('settings');
    expect(cacheFor.infoPage().tags).toEqual(['nav', 'info-pages', 'settings']);
  });

  it('names each category a page shows beside its articles once, so a rename re-renders only those pages', () => {
    const cards = [
      { id: 1, category_id: 2 },
      { id: 4, category_id: 2 },
      { id: 5, category_id: null },
    ];
    expect(cacheFor.home(cards, [9]).tags.filter((t) => t.startsWith('category-name:'))).toEqual(['category-name:2']);
    expect(cacheFor.blogList(7, []).tags).toContain('category-name:7');
    expect(cacheFor.article({ id: 3, category_id: 6 }).tags).toContain('category-name:6');
    expect(cacheFor.article({ id: 3, category_id: null }).tags.some((t) => t.startsWith('category-name:'))).toBe(false);
    expect(cacheFor.feed(cards).tags).toContain('category-name:2');
    expect(hotUrlsFor([tag.categoryName(2)])).toEqual(['/blogs?category=2']);
    expect(pageKeyOf('/manifest.webmanifest')).toBe('/manifest.webmanifest');
  });
});

describe('tag names', () => {
  it('spell tags the way pages declared them before tags were typed, and read them back', () => {
    const tags: PageTag[] = [
      tag.list,
      tag.nav,
      tag.carousel,
      tag.downloads,
      tag.topViewed,
      tag.blog(5),
      tag.category(2),
      tag.categoryName(2),
      tag.comments(5),
      tag.settings,
      tag.infoPages,
      tag.inBlock(5),
    ];
    const names = tags.map(tagName);
    expect(names).toEqual([
      'list',
      'nav',
      'carousel',
      'downloads',
      'top-viewed',
      'blog:5',
      'category:2',
      'category-name:2',
      'comments:5',
      'settings',
      'info-pages',
      'in-block:5',
    ]);
    expect(names.map(readTagName)).toEqual(tags);
  });

  it('reads nothing it did not write', () => {
    for (const name of ['', 'blog', 'blog:0', 'blog:x', 'nav:1', 'page:1', 'list:', 'Blog:1'])
      expect(readTagName(name)).toBeNull();
  });
});
