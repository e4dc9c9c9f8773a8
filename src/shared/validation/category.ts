import { readInteger, readText, type FieldErrors, type ValidationResult } from './common.ts';

/** Category add and save (docs/product.md#validation-rules): non-blank name; sequence a number, default 0. */

export const CATEGORY_LIMITS = { name: 60, sequenceMin: -1_000_000, sequenceMax: 1_000_000 } as const;

export const CATEGORY_MESSAGES = {
  nameRequired: 'Category name is required.',
  nameTooLong: `Category name must be at most ${CATEGORY_LIMITS.name} characters.`,
  sequenceInvalid: 'Sequence must be a whole number.',
  sequenceRange: `Sequence must be between ${CATEGORY_LIMITS.sequenceMin} and ${CATEGORY_LIMITS.sequenceMax}.`,
  /** docs/product.md#messages, also the 409 answer's message. */
  createFailed: 'Failed to create category. It may already exist.',
  updateFailed: 'Failed to update category.',
  fetchFailed: 'Failed to fetch categories.',
} as const;

export const DEFAULT_CATEGORY_SEQUENCE = 0;

export interface CategoryFormInput {
  name?: unknown;
  sequence?: unknown;
}

export interface CategoryValues {
  name: string;
  sequence: number;
}

export function validateCategoryInput(input: CategoryFormInput): ValidationResult<CategoryValues> {
  const errors: FieldErrors = {};
  const name = readText(input.name).replace(/\s+/g, ' ');
  if (name === '') errors.name = CATEGORY_MESSAGES.nameRequired;
  else if (name.length > CATEGORY_LIMITS.name) errors.name = CATEGORY_MESSAGES.nameTooLong;

  let sequence: number = DEFAULT_CATEGORY_SEQUENCE;
  const raw = typeof input.sequence === 'string' ? input.sequence.trim() : input.sequence;
  if (raw !== undefined && raw !== null && raw !== '') {
    const parsed = readInteger(raw);
    if (parsed === null) errors.sequence = CATEGORY_MESSAGES.sequenceInvalid;
    else if (parsed < CATEGORY_LIMITS.sequenceMin || parsed > CATEGORY_LIMITS.sequenceMax)
      errors.sequence = CATEGORY_MESSAGES.sequenceRange;
    else sequence = parsed;
  }
  return { values: { name, sequence }, errors };
}
