import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX, PASSWORD_MIN, validateLogin, validateRegistration } from './account.ts';
import { hasErrors, summarizeErrors } from './common.ts';

const good = { username: 'ann_b-1.x', email: 'ann@example.org', password: 'correct horse' };
const accepts = (result: { errors: Record<string, string> }) => !hasErrors(result.errors);

describe('validateRegistration', () => {
  it('accepts a good body, trims names and ignores every other field', () => {
    const result = validateRegistration({
      ...good,
      username: '  ann_b-1.x ',
      email: ' ann@example.org ',
      is_admin: true,
      isAdmin: 1,
    });
    expect(result).toEqual({ values: good, errors: {} });
  });

  it('keeps the password exactly as typed', () => {
    const result = validateRegistration({ ...good, password: '  spaced out  ' });
    expect(result.errors).toEqual({});
    expect(result.values.password).toBe('  spaced out  ');
  });

  it(`needs a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, () => {
    expect(accepts(validateRegistration({ ...good, password: 'x'.repeat(PASSWORD_MIN - 1) }))).toBe(false);
    expect(accepts(validateRegistration({ ...good, password: 'x'.repeat(PASSWORD_MIN) }))).toBe(true);
    expect(accepts(validateRegistration({ ...good, password: 'x'.repeat(PASSWORD_MAX) }))).toBe(true);
    expect(accepts(validateRegistration({ ...good, password: 'x'.repeat(PASSWORD_MAX + 1) }))).toBe(false);
  });

  it('needs a username of 3 to 30 letters, digits, dots, underscores or hyphens', () => {
    for (const username of ['ab', 'a'.repeat(31), 'has space', 'semi;colon', '<b>', 'émile', '']) {
      expect(accepts(validateRegistration({ ...good, username })), username).toBe(false);
    }
    for (const username of ['abc', 'a'.repeat(30), 'A.b_c-9'])
      expect(accepts(validateRegistration({ ...good, username })), username).toBe(true);
  });

  it('needs an email address', () => {
    for (const email of ['', 'plain', 'a@b', 'a b@c.org', `${'a'.repeat(250)}@x.org`]) {
      expect(accepts(validateRegistration({ ...good, email })), email).toBe(false);
    }
  });

  it('rejects wrong types and names every failing field, in form order', () => {
    const result = validateRegistration({ username: 7, email: ['a@b.org'], password: { x: 1 } });
    expect(Object.keys(result.errors).sort()).toEqual(['email', 'password', 'username']);
    expect(summarizeErrors(result.errors)).toBe('Username is required. Email is required. Password is required.');
  });
});

describe('validateLogin', () => {
  it('accepts any non-empty password up to the cap (older accounts may predate today’s rules)', () => {
    expect(validateLogin({ email: 'a@b.org', password: 'short' })).toEqual({
      values: { email: 'a@b.org', password: 'short' },
      errors: {},
    });
  });

  it('needs an email and a password', () => {
    expect(accepts(validateLogin({}))).toBe(false);
    expect(accepts(validateLogin({ email: 'a@b.org', password: '' }))).toBe(false);
    expect(accepts(validateLogin({ email: 'not-an-email', password: 'x' }))).toBe(false);
    expect(accepts(validateLogin({ email: 'a@b.org', password: 'x'.repeat(PASSWORD_MAX + 1) }))).toBe(false);
  });
});
