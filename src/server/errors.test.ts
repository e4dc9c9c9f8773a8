import { describe, expect, it } from 'vitest';
import { AppError, errorBody, throwIfInvalid } from './errors.ts';

describe('throwIfInvalid', () => {
  it('hands back the values of a valid result', () => {
    expect(throwIfInvalid({ values: { name: 'a' }, errors: {} })).toEqual({ name: 'a' });
  });

  it('throws the 400 answer naming the fields, messages in form order', () => {
    let caught: unknown;
    try {
      throwIfInvalid({ values: {}, errors: { title: 'Title is required.', image: 'Pick an image.' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect(errorBody(caught as AppError)).toEqual({
      error: 'invalid_input',
      message: 'Title is required. Pick an image.',
      fields: { title: 'Title is required.', image: 'Pick an image.' },
    });
    expect((caught as AppError).status).toBe(400);
  });

  it('uses the endpoint’s own message when it has one', () => {
    expect(() => throwIfInvalid({ values: {}, errors: { comment: 'x' } }, 'Please check the comment form.')).toThrow(
      'Please check the comment form.',
    );
  });
});
