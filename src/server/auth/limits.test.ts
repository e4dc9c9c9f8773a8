import { describe, expect, it } from 'vitest';
import type { AppError } from '../errors.ts';
import { expectAppError } from '../../../tests/support/app-error.ts';
import { createAuthLimiters, loginAccountKey, startLoginAttempt, tooManyAttempts } from './limits.ts';

const SETTINGS = { loginAccount: 5, loginIp: 20, registerIp: 3 };

describe('auth limiters', () => {
  it('allow 5 failed logins per IP and email in 15 minutes, then refuse until the window passes', () => {
    let now = 0;
    const limiters = createAuthLimiters(SETTINGS, () => now);
    const key = loginAccountKey('1.2.3.4', 'Ann@Example.org ');
    expect(key).toBe(loginAccountKey('1.2.3.4', 'ann@example.org'));
    for (let i = 0; i < 5; i++) expect(limiters.loginAccount.take(key).allowed).toBe(true);
    const refused = limiters.loginAccount.check(key);
    expect(refused.allowed).toBe(false);
    const error = tooManyAttempts(refused, 'Too many.');
    expect(error.status).toBe(429);
    expect(Number(error.headers?.['Retry-After'])).toBe(15 * 60);
    now += 15 * 60_000;
    expect(limiters.loginAccount.check(key).allowed).toBe(true);
  });

  it('count sign-ups per IP over an hour', () => {
    let now = 0;
    const limiters = createAuthLimiters(SETTINGS, () => now);
    for (let i = 0; i < 3; i++) expect(limiters.registerIp.take('ip').allowed).toBe(true);
    expect(limiters.registerIp.take('ip').allowed).toBe(false);
    expect(limiters.registerIp.take('other-ip').allowed).toBe(true);
    now += 3_600_000;
    expect(limiters.registerIp.take('ip').allowed).toBe(true);
  });
});

describe('startLoginAttempt', () => {
  it('counts the attempt before the password is checked: the limit holds for simultaneous attempts', () => {
    const limiters = createAuthLimiters({ ...SETTINGS, loginAccount: 4 }, () => 0);
    // 200 attempts started before any finished: exactly 4 go through.
    let started = 0;
    for (let i = 0; i < 200; i++) {
      try {
        startLoginAttempt(limiters, 'ip', 'ann@example.org');
        started++;
      } catch (error) {
        expect((error as AppError).status).toBe(429);
      }
    }
    expect(started).toBe(4);
  });

  it('a success clears the account count and takes its address hit back', () => {
    const limiters = createAuthLimiters({ ...SETTINGS, loginAccount: 2, loginIp: 3 }, () => 0);
    startLoginAttempt(limiters, 'ip', 'a@x.org');
    startLoginAttempt(limiters, 'ip', 'a@x.org').succeeded();
    // The account may fail twice again; the address has two failures now, so one more try is free.
    startLoginAttempt(limiters, 'ip', 'a@x.org');
    startLoginAttempt(limiters, 'ip', 'b@x.org');
    expectAppError(() => startLoginAttempt(limiters, 'ip', 'c@x.org'), 429, 'rate_limited');
  });

  it('slows an address down after its free failures instead of locking it for an hour', () => {
    let now = 0;
    const limiters = createAuthLimiters({ ...SETTINGS, loginIp: 3 }, () => now);
    for (let i = 0; i < 3; i++) startLoginAttempt(limiters, 'ip', `u${i}@x.org`);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const error = expectAppError(() => startLoginAttempt(limiters, 'ip', `v${i}@x.org`), 429);
      const seconds = Number(error.headers?.['Retry-After']);
      waits.push(seconds);
      now += seconds * 1000;
      startLoginAttempt(limiters, 'ip', `w${i}@x.org`); // allowed once the wait is over, and it fails
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 600]);
    // A refused attempt cost its account nothing.
    for (let i = 0; i < 5; i++) limiters.loginAccount.take(loginAccountKey('ip', 'v0@x.org'));
    expect(limiters.loginAccount.check(loginAccountKey('ip', 'v0@x.org')).allowed).toBe(false);
    // An hour without failures and the address is fresh again.
    now += 3_600_000;
    startLoginAttempt(limiters, 'ip', 'fresh@x.org');
  });

  it('lets an account that logged in from the address before past the address wait, not past its own limit', () => {
    const limiters = createAuthLimiters({ ...SETTINGS, loginAccount: 2, loginIp: 2 }, () => 0);
    startLoginAttempt(limiters, 'shared', 'reader@x.org').succeeded();
    for (const email of ['a@x.org', 'b@x.org']) startLoginAttempt(limiters, 'shared', email);
    expectAppError(() => startLoginAttempt(limiters, 'shared', 'c@x.org'), 429, 'rate_limited');
    expectAppError(() => startLoginAttempt(limiters, 'shared', 'new-reader@x.org'), 429, 'rate_limited');
    // The known reader still gets in (and a wrong guess of theirs still counts against their own limit).
    startLoginAttempt(limiters, 'shared', 'reader@x.org');
    startLoginAttempt(limiters, 'shared', 'reader@x.org');
    expectAppError(() => startLoginAttempt(limiters, 'shared', 'reader@x.org'), 429, 'rate_limited');
    // Known from another address does not count.
    startLoginAttempt(limiters, 'other', 'x@x.org');
    startLoginAttempt(limiters, 'other', 'y@x.org');
    expectAppError(() => startLoginAttempt(limiters, 'other', 'reader@x.org'), 429, 'rate_limited');
  });
});
