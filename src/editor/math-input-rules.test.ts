import { describe, expect, it } from 'vitest';
import { DISPLAY_MATH, INLINE_MATH } from './math-input-rules.ts';

const inline = (typed: string) => INLINE_MATH.exec(typed)?.[2] ?? null;
const display = (typed: string) => DISPLAY_MATH.exec(typed)?.[1] ?? null;

describe('formulas typed as in markdown', () => {
  it('takes $…$ as an inline formula when the closing $ is typed', () => {
    expect(inline('The area is $\\pi r^2$')).toBe('\\pi r^2');
    expect(inline('$x$')).toBe('x');
    expect(inline('so $a_1 + a_2$')).toBe('a_1 + a_2');
  });

  it('leaves prices, escaped dollars and $$ alone', () => {
    expect(inline('costs $5 and $')).toBeNull();
    expect(inline('from $ 5 to 6$')).toBeNull();
    expect(inline('a \\$5 note and 6$')).toBeNull();
    expect(inline('ends with \\$x\\$')).toBeNull();
    expect(inline('$$x^2$')).toBeNull();
    expect(inline('$$x^2$$')).toBeNull();
  });

  it('takes a paragraph written as $$…$$ as a display formula', () => {
    expect(display('$$E = mc^2$$')).toBe('E = mc^2');
    expect(display('$$ \\int_0^1 x\\,dx $$')).toBe(' \\int_0^1 x\\,dx ');
    expect(display('$$  $$')).toBeNull();
    expect(display('see $$x$$')).toBeNull();
  });
});
