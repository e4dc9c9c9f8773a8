import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_PAGES,
  adminEditHref,
  adminInfoPageHref,
  adminPreviewHref,
  articleHref,
  blogsHref,
  categoryHref,
  confirmEmailHref,
  homeHref,
  resetPasswordHref,
  searchHref,
  setupHref,
  SITE_FILES,
  SITE_PAGES,
} from './paths.ts';
import { pageKeyOf } from './page-key.ts';

describe('searchHref', () => {
  it('ignores blank and whitespace-only text', () => {
    expect(searchHref('')).toBeNull();
    expect(searchHref('   \t\n ')).toBeNull();
  });

  it('goes to /blogs?search= with the trimmed, encoded text', () => {
    expect(searchHref('  newton laws ')).toBe('/blogs?search=newton%20laws');
    expect(searchHref('a&b=c#d?')).toBe('/blogs?search=a%26b%3Dc%23d%3F');
  });
});

describe('blogsHref', () => {
  it('omits unset filters and page 1', () => {
    expect(blogsHref({})).toBe('/blogs');
    expect(blogsHref({ page: 1 })).toBe('/blogs');
    expect(blogsHref({ category: null, search: null })).toBe('/blogs');
  });

  it('keeps category, search and page in a fixed order', () => {
    expect(blogsHref({ category: 3, page: 2 })).toBe('/blogs?category=3&page=2');
    expect(blogsHref({ search: 'x y', page: 4 })).toBe('/blogs?search=x+y&page=4');
    expect(blogsHref({ category: 5, search: 'a&b' })).toBe('/blogs?category=5&search=a%26b');
  });
});

describe('blogsHref encoding', () => {
  it('form-encodes the search of a list link, as the search form submits it', () => {
    expect(blogsHref({ search: 'a+b c/d?é', page: 2 })).toBe('/blogs?search=a%2Bb+c%2Fd%3F%C3%A9&page=2');
    expect(blogsHref({ search: "it's (x)*~" })).toBe('/blogs?search=it%27s+%28x%29*%7E');
  });

  it('leaves out a search of blank text and a page below 2', () => {
    expect(blogsHref({ search: '', page: 0 })).toBe('/blogs');
    expect(blogsHref({ category: 0 })).toBe('/blogs');
  });
});

describe('searchHref encoding', () => {
  it('percent-encodes the nav search, spaces as %20', () => {
    expect(searchHref('a+b c/d?é')).toBe('/blogs?search=a%2Bb%20c%2Fd%3F%C3%A9');
    expect(searchHref("it's (x)*~")).toBe("/blogs?search=it's%20(x)*~");
  });
});

describe('homeHref and categoryHref', () => {
  it('give page 1 no page parameter', () => {
    expect(homeHref()).toBe('/');
    expect(homeHref(1)).toBe('/');
    expect(homeHref(2)).toBe('/?page=2');
    expect(categoryHref(4)).toBe('/blogs?category=4');
    expect(categoryHref(4, 1)).toBe('/blogs?category=4');
    expect(categoryHref(4, 3)).toBe('/blogs?category=4&page=3');
  });
});

describe('articleHref', () => {
  it('is /blog/ID, with the reading position as a fragment when given', () => {
    expect(articleHref(12)).toBe('/blog/12');
    expect(articleHref(12, 0)).toBe('/blog/12#at=0');
    expect(articleHref(12, 340)).toBe('/blog/12#at=340');
  });
});

describe('account and admin links', () => {
  it('carry the one-time token as a query value', () => {
    const token = 'Ab_9-x';
    expect(resetPasswordHref(token)).toBe('/reset-password?token=Ab_9-x');
    expect(confirmEmailHref(token)).toBe('/confirm-email?token=Ab_9-x');
    expect(setupHref(token)).toBe('/setup?token=Ab_9-x');
    expect(setupHref('a b&c')).toBe('/setup?token=a%20b%26c');
  });

  it('name the admin screens of one article or page', () => {
    expect(adminEditHref(7)).toBe('/admin/edit-blog/7');
    expect(adminPreviewHref(7)).toBe('/admin/preview/7');
    expect(adminInfoPageHref('contact')).toBe('/admin/pages?page=contact');
  });

  it('spell the fixed pages as the routes are named', () => {
    expect(Object.values(ACCOUNT_PAGES)).toEqual([
      '/login',
      '/logout',
      '/register',
      '/forgot-password',
      '/reset-password',
      '/confirm-email',
      '/setup',
      '/account',
      '/account#two-factor',
      '/library',
      '/offline',
    ]);
  });
});

describe('the builders and the page store', () => {
  it('build the very keys the page store keeps, so a link finds its stored page', () => {
    const built = [
      ...Object.values(SITE_PAGES),
      ...Object.values(SITE_FILES),
      homeHref(3),
      blogsHref({ page: 5 }),
      categoryHref(2),
      categoryHref(2, 4),
      articleHref(31),
    ];
    for (const href of built) expect(pageKeyOf(href)).toBe(href);
  });

  it('give searches and account pages no stored page', () => {
    expect(pageKeyOf(searchHref('waves')!)).toBeNull();
    for (const href of Object.values(ACCOUNT_PAGES)) expect(pageKeyOf(href)).toBeNull();
  });
});
