import { describe, expect, it } from 'vitest';
import { expectAppError } from '../../../tests/support/app-error.ts';
import { requireId } from './ids.ts';

describe('requireId', () => {
  it('accepts a positive whole number', () => {
    expect(requireId('12', 'blog')).toBe(12);
  });

  it.each([[undefined], [''], ['0'], ['-1'], ['1e3'], ['1 OR 1=1'], ['12345678901234567890'], ['abc']])(
    'refuses %j with 400',
    (raw) => {
      expectAppError(() => requireId(raw, 'blog'), 400, 'invalid_input');
    },
  );

  it('names what the id was for', () => {
    expect(expectAppError(() => requireId('x', 'comment'), 400).message).toBe('The comment id must be a positive whole number.');
  });
});
