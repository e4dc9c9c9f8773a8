import { describe, expect, it } from 'vitest';
import { expectAppError } from '../../../tests/support/app-error.ts';
import { BLOG_LIST_DEFAULT_LIMIT, BLOG_LIST_MAX_LIMIT, parseBlogListQuery } from './list-queries.ts';

describe('parseBlogListQuery', () => {
  const parse = (query: string) => parseBlogListQuery(new URLSearchParams(query));

  it('has defaults for everything', () => {
    expect(parse('')).toEqual({ categoryId: null, search: null, limit: BLOG_LIST_DEFAULT_LIMIT, offset: 0 });
    expect(parse('category=&search=&limit=&offset=')).toEqual(parse(''));
  });

  it('reads category, search, limit and offset', () => {
    expect(parse('category=3&search=%20cell%20%20biology%20&limit=10&offset=20')).toEqual({
      categoryId: 3,
      search: 'cell biology',
      limit: 10,
      offset: 20,
    });
    expect(parse(`limit=${BLOG_LIST_MAX_LIMIT}`).limit).toBe(200);
  });

  it('ignores a blank search', () => {
    expect(parse('search=%20%20%09').search).toBeNull();
  });

  it.each([
    ['category=abc', 'category'],
    ['category=0', 'category'],
    ['category=-1', 'category'],
    ['category=1e3', 'category'],
    ['category=1%20OR%201%3D1', 'category'],
    ['category=12345678901234567890', 'category'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=99999999999', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=1e2', 'offset'],
    ['offset=x', 'offset'],
    ['offset=99999999999', 'offset'],
  ])('refuses %s with 400 naming %s', (query, field) => {
    const error = expectAppError(() => parse(query), 400);
    expect(Object.keys(error.fields ?? {})).toEqual([field]);
  });

  it('names every bad field at once', () => {
    expect(Object.keys(expectAppError(() => parse('category=x&limit=0&offset=-1'), 400).fields ?? {}).sort()).toEqual([
      'category',
      'limit',
      'offset',
    ]);
  });
});
