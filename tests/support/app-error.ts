import { expect } from 'vitest';
import { AppError, type ErrorCode } from '../../src/server/errors.ts';

/**
 * Runs `fn`, which must throw an AppError with this status (and this code, when given), and
 * returns that error for further checks. Any other throw fails the test as it is.
 */
export function expectAppError(fn: () => unknown, status: number, code?: ErrorCode): AppError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  if (thrown === undefined) throw new Error('expected an AppError, but nothing was thrown');
  if (!(thrown instanceof AppError)) throw thrown;
  expect(thrown.status).toBe(status);
  if (code !== undefined) expect(thrown.code).toBe(code);
  return thrown;
}
