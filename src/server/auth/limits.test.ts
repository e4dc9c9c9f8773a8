import { describe, expect, it } from 'vitest';
import { createAuthLimiters, loginAccountKey, readAuthLimitSettings, tooManyAttempts } from './limits.ts';

describe('readAuthLimitSettings', () => {
  it('defaults to 5 per account, 20 per IP for logins and 3 sign-ups per IP', () => {
    expect(readAuthLimitSettings({})).toEqual({ loginAccount: 5, loginIp: 20, registerIp: 3 });
  });

  it('reads the environment', () => {
    expect(
      readAuthLimitSettings({ RATE_LIMIT_LOGIN_ACCOUNT: '2', RATE_LIMIT_LOGIN_IP: '4', RATE_LIMIT_REGISTER_IP: '100' }),
    ).toEqual({
      loginAccount: 2,
      loginIp: 4,
      registerIp: 100,
    });
  });

  it('refuses nonsense', () => {
    for (const value of ['0', '-1', '1.5', 'ten', '1e3', '2000000']) {
      expect(() => readAuthLimitSettings({ RATE_LIMIT_LOGIN_IP: value }), value).toThrow(/RATE_LIMIT_LOGIN_IP/);
    }
  });
});

describe('auth limiters', () => {
  it('allow 5 failed logins per IP and email in 15 minutes, then refuse until the window passes', () => {
    let now = 0;
    const limiters = createAuthLimiters({ loginAccount: 5, loginIp: 20, registerIp: 3 }, () => now);
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
    const limiters = createAuthLimiters({ loginAccount: 5, loginIp: 20, registerIp: 3 }, () => now);
    for (let i = 0; i < 3; i++) expect(limiters.registerIp.take('ip').allowed).toBe(true);
    expect(limiters.registerIp.take('ip').allowed).toBe(false);
    expect(limiters.registerIp.take('other-ip').allowed).toBe(true);
    now += 3_600_000;
    expect(limiters.registerIp.take('ip').allowed).toBe(true);
  });
});
