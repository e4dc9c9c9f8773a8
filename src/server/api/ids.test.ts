import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { requireId } from './ids.ts';

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('requireId', () => {
  it('accepts a positive whole number', () => {
    expect(requireId('12', 'blog')).toBe(12);
  });

  it.each([[undefined], [''], ['0'], ['-1'], ['1e3'], ['1 OR 1=1'], ['12345678901234567890'], ['abc']])(
    'refuses %j with 400',
    (raw) => {
      expect(errorOf(() => requireId(raw, 'blog')).status).toBe(400);
    },
  );

  it('names what the id was for', () => {
    expect(errorOf(() => requireId('x', 'comment')).message).toBe('The comment id must be a positive whole number.');
  });
});
