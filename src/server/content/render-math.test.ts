import { beforeAll, describe, expect, it } from 'vitest';
import { clearFormulaCache, loadFormulaTypesetter, type FormulaTypesetter } from './render-math.ts';

let typesetFormula: FormulaTypesetter;
beforeAll(async () => {
  typesetFormula = await loadFormulaTypesetter();
});

describe('typesetFormula: the cache of typeset formulas', () => {
  it('typesets a formula once: a page rendered again gets the kept result', () => {
    clearFormulaCache();
    const first = typesetFormula('E = mc^2', false);
    expect(typesetFormula(' E = mc^2 ', false)).toBe(first);
    // Inline and display are typeset differently, and kept apart.
    expect(typesetFormula('E = mc^2', true)).not.toBe(first);
    expect(typesetFormula('E = mc^2', true).html).toContain('display="block"');
    const invalid = typesetFormula('\\frac{1}{', false);
    expect(invalid.error).not.toBeNull();
    expect(typesetFormula('\\frac{1}{', false)).toBe(invalid);
  });

  it('keeps the most recently used formulas and drops the oldest past its bound', () => {
    clearFormulaCache();
    const oldest = typesetFormula('a_0', false);
    const used = typesetFormula('b_0', false);
    for (let i = 1; i <= 2000; i++) {
      typesetFormula(`c_{${i}}`, false);
      if (i % 500 === 0) expect(typesetFormula('b_0', false)).toBe(used);
    }
    expect(typesetFormula('b_0', false)).toBe(used);
    const again = typesetFormula('a_0', false);
    expect(again).not.toBe(oldest);
    expect(again).toEqual(oldest);
  });
});
