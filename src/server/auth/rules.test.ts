import { describe, expect, it } from 'vitest';
import { checkLogin, checkRegistration, PASSWORD_MAX, PASSWORD_MIN, summarizeErrors } from './rules.ts';

const good = { username: 'ann_b-1.x', email: 'ann@example.org', password: 'correct horse' };

describe('checkRegistration', () => {
  it('accepts a good body, trims names and ignores every other field', () => {
    const result = checkRegistration({
      ...good,
      username: '  ann_b-1.x ',
      email: ' ann@example.org ',
      is_admin: true,
      isAdmin: 1,
    });
    expect(result).toEqual({ ok: true, value: good });
  });

  it('keeps the password exactly as typed', () => {
    const result = checkRegistration({ ...good, password: '  spaced out  ' });
    expect(result.ok && result.value.password).toBe('  spaced out  ');
  });

  it(`needs a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`, () => {
    expect(checkRegistration({ ...good, password: 'x'.repeat(PASSWORD_MIN - 1) }).ok).toBe(false);
    expect(checkRegistration({ ...good, password: 'x'.repeat(PASSWORD_MIN) }).ok).toBe(true);
    expect(checkRegistration({ ...good, password: 'x'.repeat(PASSWORD_MAX) }).ok).toBe(true);
    expect(checkRegistration({ ...good, password: 'x'.repeat(PASSWORD_MAX + 1) }).ok).toBe(false);
  });

  it('needs a username of 3 to 30 letters, digits, dots, underscores or hyphens', () => {
    for (const username of ['ab', 'a'.repeat(31), 'has space', 'semi;colon', '<b>', 'émile', '']) {
      expect(checkRegistration({ ...good, username }).ok, username).toBe(false);
    }
    for (const username of ['abc', 'a'.repeat(30), 'A.b_c-9'])
      expect(checkRegistration({ ...good, username }).ok, username).toBe(true);
  });

  it('needs an email address', () => {
    for (const email of ['', 'plain', 'a@b', 'a b@c.org', `${'a'.repeat(250)}@x.org`]) {
      expect(checkRegistration({ ...good, email }).ok, email).toBe(false);
    }
  });

  it('rejects wrong types and names every failing field', () => {
    const result = checkRegistration({ username: 7, email: ['a@b.org'], password: { x: 1 } });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(Object.keys(result.errors).sort()).toEqual(['email', 'password', 'username']);
      expect(summarizeErrors(result.errors)).toBe('Username is required. Email is required. Password is required.');
    }
  });
});

describe('checkLogin', () => {
  it('accepts any non-empty password up to the cap (older accounts may predate today’s rules)', () => {
    expect(checkLogin({ email: 'a@b.org', password: 'short' })).toEqual({
      ok: true,
      value: { email: 'a@b.org', password: 'short' },
    });
  });

  it('needs an email and a password', () => {
    expect(checkLogin({}).ok).toBe(false);
    expect(checkLogin({ email: 'a@b.org', password: '' }).ok).toBe(false);
    expect(checkLogin({ email: 'not-an-email', password: 'x' }).ok).toBe(false);
    expect(checkLogin({ email: 'a@b.org', password: 'x'.repeat(PASSWORD_MAX + 1) }).ok).toBe(false);
  });
});
