import { describe, expect, it } from 'vitest';
import { CATEGORY_MESSAGES, validateCategoryInput } from './category.ts';

describe('validateCategoryInput', () => {
  it('trims and collapses the name; sequence defaults to 0', () => {
    expect(validateCategoryInput({ name: '  Computer   Science ' })).toEqual({
      values: { name: 'Computer Science', sequence: 0 },
      errors: {},
    });
    expect(validateCategoryInput({ name: 'X', sequence: '' }).values.sequence).toBe(0);
    expect(validateCategoryInput({ name: 'X', sequence: null }).values.sequence).toBe(0);
  });

  it('requires a non-blank name of at most 60 characters', () => {
    expect(validateCategoryInput({ name: '   ' }).errors).toEqual({ name: CATEGORY_MESSAGES.nameRequired });
    expect(validateCategoryInput({}).errors).toEqual({ name: CATEGORY_MESSAGES.nameRequired });
    expect(validateCategoryInput({ name: 'x'.repeat(60) }).errors).toEqual({});
    expect(validateCategoryInput({ name: 'x'.repeat(61) }).errors).toEqual({ name: CATEGORY_MESSAGES.nameTooLong });
  });

  it('takes a whole-number sequence as a number or digits', () => {
    expect(validateCategoryInput({ name: 'X', sequence: 4 }).values.sequence).toBe(4);
    expect(validateCategoryInput({ name: 'X', sequence: ' -3 ' }).values.sequence).toBe(-3);
    for (const bad of ['abc', 1.5, '1.5', '2e3', true, [], Number.NaN]) {
      expect(validateCategoryInput({ name: 'X', sequence: bad }).errors).toEqual({ sequence: CATEGORY_MESSAGES.sequenceInvalid });
    }
    expect(validateCategoryInput({ name: 'X', sequence: 10_000_000 }).errors).toEqual({
      sequence: CATEGORY_MESSAGES.sequenceRange,
    });
  });
});
