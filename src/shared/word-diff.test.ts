import { describe, expect, it } from 'vitest';
import { diffWords, hasChanges, tokenize } from './word-diff.ts';

const rebuild = (parts: ReturnType<typeof diffWords>, side: 'before' | 'after') =>
  parts
    .filter((p) => p.kind === 'same' || p.kind === (side === 'before' ? 'removed' : 'added'))
    .map((p) => p.text)
    .join('');

describe('diffWords', () => {
  it('marks the words that changed and keeps the rest', () => {
    expect(diffWords('the quick brown fox', 'the slow brown fox jumps')).toEqual([
      { kind: 'same', text: 'the ' },
      { kind: 'removed', text: 'quick' },
      { kind: 'added', text: 'slow' },
      { kind: 'same', text: ' brown fox' },
      { kind: 'added', text: ' jumps' },
    ]);
  });

  it('finds the longest run kept, not just a shared start and end', () => {
    const parts = diffWords('a b c d e', 'x b c y e');
    expect(parts.filter((p) => p.kind === 'same').map((p) => p.text)).toEqual([' b c ', ' e']);
  });

  it('reads back both texts exactly, whitespace included', () => {
    const before = 'Line one\n\nLine  two with   spaces\tand tabs';
    const after = 'Line one\nLine two with spaces\tand more tabs';
    const parts = diffWords(before, after);
    expect(rebuild(parts, 'before')).toBe(before);
    expect(rebuild(parts, 'after')).toBe(after);
  });

  it('has no changes for equal texts, and handles empty sides', () => {
    expect(hasChanges(diffWords('same text', 'same text'))).toBe(false);
    expect(diffWords('', 'new')).toEqual([{ kind: 'added', text: 'new' }]);
    expect(diffWords('old', '')).toEqual([{ kind: 'removed', text: 'old' }]);
    expect(diffWords('', '')).toEqual([]);
  });

  it('marks each edited word of a long article edited throughout, not the whole middle', () => {
    const words = Array.from({ length: 3000 }, (_, n) => `w${n}`);
    const edited = words.map((word, n) => (n % 150 === 0 ? `${word}x` : word));
    const parts = diffWords(words.join(' '), edited.join(' '));
    expect(parts.filter((p) => p.kind === 'removed').map((p) => p.text)).toEqual(words.filter((_, n) => n % 150 === 0));
    expect(parts.filter((p) => p.kind === 'added')).toHaveLength(20);
  });

  it('gives a coarse but correct answer for texts too large to compare word by word', () => {
    const before = Array.from({ length: 3000 }, (_, n) => `a${n}`).join(' ');
    const after = Array.from({ length: 3000 }, (_, n) => `b${n}`).join(' ');
    const parts = diffWords(`start ${before} end`, `start ${after} end`);
    expect(rebuild(parts, 'before')).toBe(`start ${before} end`);
    expect(rebuild(parts, 'after')).toBe(`start ${after} end`);
    expect(parts.map((p) => p.kind)).toEqual(['same', 'removed', 'added', 'same']);
  });
});

describe('tokenize', () => {
  it('keeps whitespace runs as tokens', () => {
    expect(tokenize(' a  b\n')).toEqual([' ', 'a', '  ', 'b', '\n']);
  });
});
