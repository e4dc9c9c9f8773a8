import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config.rateLimits', () => {
  it('defaults to 5 comments, 5 failed logins per account, 20 per address and 3 sign-ups', () => {
    expect(loadConfig({}).rateLimits).toEqual({ commentIp: 5, loginAccount: 5, loginIp: 20, registerIp: 3, searchIp: 30 });
  });

  it('reads the RATE_LIMIT_* variables', () => {
    const env = {
      RATE_LIMIT_COMMENT_IP: '100',
      RATE_LIMIT_LOGIN_ACCOUNT: '2',
      RATE_LIMIT_LOGIN_IP: '4',
      RATE_LIMIT_REGISTER_IP: '1000000',
      RATE_LIMIT_SEARCH_IP: '7',
    };
    expect(loadConfig(env).rateLimits).toEqual({
      commentIp: 100,
      loginAccount: 2,
      loginIp: 4,
      registerIp: 1_000_000,
      searchIp: 7,
    });
  });

  it('refuses anything but a whole number from 1 to 1,000,000, naming the variable', () => {
    for (const name of ['RATE_LIMIT_COMMENT_IP', 'RATE_LIMIT_LOGIN_ACCOUNT', 'RATE_LIMIT_LOGIN_IP', 'RATE_LIMIT_REGISTER_IP']) {
      for (const value of ['0', '-1', '1.5', 'ten', '1e3', '2000000', 'abc']) {
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
      }
    }
  });
});

describe('REVISIONS_KEEP', () => {
  it('keeps 50 revisions per article unless told otherwise', () => {
    expect(loadConfig({}).revisionsKeep).toBe(50);
    expect(loadConfig({ REVISIONS_KEEP: '3' }).revisionsKeep).toBe(3);
  });

  it('refuses anything but a whole number from 1 to 10,000', () => {
    for (const value of ['0', '-1', '2.5', 'many', '10001']) {
      expect(() => loadConfig({ REVISIONS_KEEP: value }), value).toThrow(/REVISIONS_KEEP/);
    }
  });
});
