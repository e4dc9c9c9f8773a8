import os from 'node:os';
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

describe('config.renderWorkers', () => {
  it('defaults to one render worker per core and 256 MiB each', () => {
    const config = loadConfig({});
    expect(config.renderWorkers).toBe(os.availableParallelism());
    expect(config.renderWorkerMemoryMb).toBe(256);
  });

  it('reads RENDER_WORKERS and RENDER_WORKER_MEMORY_MB', () => {
    const config = loadConfig({ RENDER_WORKERS: '3', RENDER_WORKER_MEMORY_MB: '128' });
    expect([config.renderWorkers, config.renderWorkerMemoryMb]).toEqual([3, 128]);
  });

  it('refuses no workers, too many, and a heap too small to load the site', () => {
    for (const [name, value] of [
      ['RENDER_WORKERS', '0'],
      ['RENDER_WORKERS', '65'],
      ['RENDER_WORKERS', 'two'],
      ['RENDER_WORKER_MEMORY_MB', '32'],
      ['RENDER_WORKER_MEMORY_MB', '1.5'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
    }
  });
});
