import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, cardExcerpt } from './card-excerpt.ts';

describe('cardExcerpt', () => {
  it("drops the article's own Read more at the end, whatever its punctuation", () => {
    for (const ending of [
      'Read more',
      'Read more...',
      ' … read more',
      'Continue reading →',
      '[Read more]',
      '(keep reading…)',
      '— Read More »',
    ])
      expect(cardExcerpt(`Cells divide in two ways.${ending}`), ending).toBe('Cells divide in two ways.');
  });

  it('keeps "read more" inside the text and adds an ellipsis only where the text was cut', () => {
    expect(cardExcerpt('Read more about cells in chapter two.')).toBe('Read more about cells in chapter two.');
    expect(cardExcerpt('Students who read more score higher')).toBe('Students who read more score higher');
    expect(cardExcerpt('The best students read more')).toBe('The best students read more');
    const long = 'word '.repeat(EXCERPT_CHARS / 5);
    expect(cardExcerpt(long)).toBe(`${long.trimEnd()}…`);
    expect(cardExcerpt(`${'x'.repeat(EXCERPT_CHARS - 12)}. Read more..`)).toBe(`${'x'.repeat(EXCERPT_CHARS - 12)}.`);
    expect(cardExcerpt(`${'x'.repeat(EXCERPT_CHARS - 12)} - read more`)).toBe(`${'x'.repeat(EXCERPT_CHARS - 12)}…`);
  });

  it('leaves nothing when the text was only a Read more', () => {
    expect(cardExcerpt('Read more')).toBe('');
  });
});
