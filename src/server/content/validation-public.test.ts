import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { BLOG_LIST_DEFAULT_LIMIT, BLOG_LIST_MAX_LIMIT, parseBlogListQuery, requireBlogId } from './validation-public.ts';

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

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
    const error = errorOf(() => parse(query));
    expect(error.status).toBe(400);
    expect(Object.keys(error.fields ?? {})).toEqual([field]);
  });

  it('names every bad field at once', () => {
    expect(Object.keys(errorOf(() => parse('category=x&limit=0&offset=-1')).fields ?? {}).sort()).toEqual([
      'category',
      'limit',
      'offset',
    ]);
  });
});

describe('requireBlogId', () => {
  it('accepts a positive whole number', () => {
    expect(requireBlogId('12')).toBe(12);
  });

  it.each([[undefined], [''], ['0'], ['-1'], ['1e3'], ['1 OR 1=1'], ['12345678901234567890'], ['abc']])(
    'refuses %j with 400',
    (raw) => {
      expect(errorOf(() => requireBlogId(raw)).status).toBe(400);
    },
  );
});
