import { describe, expect, it } from 'vitest';
import { counted } from './counted.ts';

describe('counted', () => {
  it('puts the noun in the singular only for one', () => {
    expect(counted(1, 'view')).toBe('1 view');
    expect(counted(0, 'view')).toBe('0 views');
    expect(counted(2, 'view')).toBe('2 views');
    expect(counted(3, 'reply', 'replies')).toBe('3 replies');
  });
});
