import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config.rateLimits', () => {
  it('defaults to 5 comments, 5 failed logins per account, 20 per address, 3 sign-ups and 3 reset mails per email', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      commentIp: 5,
      loginAccount: 5,
      loginIp: 20,
      registerIp: 3,
      searchIp: 30,
      searchWindowSeconds: 10,
      notFoundPerSecond: 100,
      resetIp: 10,
      resetEmail: 3,
    });
  });

  it('reads the RATE_LIMIT_* variables', () => {
    const env = {
      RATE_LIMIT_COMMENT_IP: '100',
      RATE_LIMIT_LOGIN_ACCOUNT: '2',
      RATE_LIMIT_LOGIN_IP: '4',
      RATE_LIMIT_REGISTER_IP: '1000000',
      RATE_LIMIT_SEARCH_IP: '7',
      RATE_LIMIT_SEARCH_WINDOW_SECONDS: '60',
      RATE_LIMIT_NOT_FOUND_PER_SECOND: '3',
      RATE_LIMIT_RESET_IP: '8',
      RATE_LIMIT_RESET_EMAIL: '9',
    };
    expect(loadConfig(env).rateLimits).toEqual({
      commentIp: 100,
      loginAccount: 2,
      loginIp: 4,
      registerIp: 1_000_000,
      searchIp: 7,
      searchWindowSeconds: 60,
      notFoundPerSecond: 3,
      resetIp: 8,
      resetEmail: 9,
    });
  });

  it('refuses anything but a whole number from 1 to 1,000,000, naming the variable', () => {
    for (const name of [
      'RATE_LIMIT_COMMENT_IP',
      'RATE_LIMIT_LOGIN_ACCOUNT',
      'RATE_LIMIT_LOGIN_IP',
      'RATE_LIMIT_REGISTER_IP',
      'RATE_LIMIT_NOT_FOUND_PER_SECOND',
    ]) {
      for (const value of ['0', '-1', '1.5', 'ten', '1e3', '2000000', 'abc']) {
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
        expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(new RegExp(name));
      }
    }
  });
});

describe('shared caches and metrics', () => {
  const SECRET = 'b1946ac92492d2347c6235b4d2611184b1946ac92492d2347c6235b4d2611184';

  it('are off by default', () => {
    const config = loadConfig({});
    expect(config.cdn).toEqual({ tagHeaders: [], purgeVarnish: [], maxAgeSeconds: 86400, purgeSecret: null, purgeWaitMs: 250 });
    expect(config.metricsAddress).toBeNull();
  });

  it('read CDN_TAG_HEADERS in any case, once each, and PURGE_VARNISH as one or more base URLs', () => {
    const config = loadConfig({
      CDN_TAG_HEADERS: 'surrogate-key, XKEY,Cache-Tag,xkey',
      PURGE_VARNISH: 'http://10.0.0.5:6081, http://10.0.0.6',
      PURGE_SECRET: SECRET,
    });
    expect(config.cdn.tagHeaders).toEqual(['Surrogate-Key', 'xkey', 'Cache-Tag']);
    expect(config.cdn.purgeVarnish.map(String)).toEqual(['http://10.0.0.5:6081/', 'http://10.0.0.6/']);
  });

  it('purging Varnish implies the xkey header, and refuses a list that leaves it out', () => {
    expect(loadConfig({ PURGE_VARNISH: 'http://127.0.0.1:6081', PURGE_SECRET: SECRET }).cdn.tagHeaders).toEqual(['xkey']);
    expect(() =>
      loadConfig({ PURGE_VARNISH: 'http://127.0.0.1:6081', PURGE_SECRET: SECRET, CDN_TAG_HEADERS: 'Cache-Tag' }),
    ).toThrow(/add xkey/);
  });

  it('purging Varnish needs PURGE_SECRET, long and plain enough for a header and a VCL string', () => {
    expect(() => loadConfig({ PURGE_VARNISH: 'http://127.0.0.1:6081' })).toThrow(/PURGE_VARNISH needs PURGE_SECRET/);
    for (const value of ['short', 'x'.repeat(31), `${'a'.repeat(32)}"`, `${'a'.repeat(32)} b`, 'é'.repeat(40)]) {
      expect(() => loadConfig({ PURGE_VARNISH: 'http://127.0.0.1:6081', PURGE_SECRET: value }), value).toThrow(
        /PURGE_SECRET must be/,
      );
    }
    const config = loadConfig({ PURGE_VARNISH: 'http://127.0.0.1:6081', PURGE_SECRET: SECRET, PURGE_WAIT_MS: '100' });
    expect(config.cdn).toMatchObject({ purgeSecret: SECRET, purgeWaitMs: 100 });
    expect(() => loadConfig({ PURGE_WAIT_MS: '20000' })).toThrow(/PURGE_WAIT_MS/);
  });

  it('refuses unknown headers and addresses that are not http base URLs', () => {
    expect(() => loadConfig({ CDN_TAG_HEADERS: 'xkey,X-Tags' })).toThrow(/CDN_TAG_HEADERS.*"X-Tags"/);
    for (const value of ['varnish:6081', 'https://cdn.example', 'ftp://x']) {
      expect(() => loadConfig({ PURGE_VARNISH: value, PURGE_SECRET: SECRET }), value).toThrow(/PURGE_VARNISH/);
    }
  });

  it('reads METRICS_ADDRESS as host:port', () => {
    expect(loadConfig({ METRICS_ADDRESS: '127.0.0.1:9464' }).metricsAddress).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_ADDRESS: '[::1]:9464' }).metricsAddress).toEqual({ host: '::1', port: 9464 });
    for (const value of ['9464', '127.0.0.1', '127.0.0.1:99999', 'http://127.0.0.1:9464']) {
      expect(() => loadConfig({ METRICS_ADDRESS: value }), value).toThrow(/METRICS_ADDRESS/);
    }
  });
});

describe('config.renderWorkers', () => {
  it('defaults to one render worker per core and 256 MiB each', () => {
    const config = loadConfig({ WEB_PROCESSES: '1' });
    expect(config.renderWorkers).toBe(os.availableParallelism());
    expect(config.renderWorkerMemoryMb).toBe(256);
  });

  it('shares the cores between the serving processes by default', () => {
    expect(loadConfig({ WEB_PROCESSES: String(os.availableParallelism()) }).renderWorkers).toBe(1);
    expect(loadConfig({ WEB_PROCESSES: '2', RENDER_WORKERS: '3' }).renderWorkers).toBe(3);
  });

  it('reads RENDER_WORKERS and RENDER_WORKER_MEMORY_MB', () => {
    const config = loadConfig({ RENDER_WORKERS: '3', RENDER_WORKER_MEMORY_MB: '128' });
    expect([config.renderWorkers, config.renderWorkerMemoryMb]).toEqual([3, 128]);
  });

  it('stops idle render workers after 60 s by default; RENDER_WORKERS_REST_SECONDS=0 keeps them', () => {
    expect(loadConfig({}).renderWorkersRestSeconds).toBe(60);
    expect(loadConfig({ RENDER_WORKERS_REST_SECONDS: '0' }).renderWorkersRestSeconds).toBe(0);
    expect(loadConfig({ RENDER_WORKERS_REST_SECONDS: '600' }).renderWorkersRestSeconds).toBe(600);
  });

  it('refuses no workers, too many, and a heap too small to load the site', () => {
    for (const [name, value] of [
      ['RENDER_WORKERS_REST_SECONDS', '-1'],
      ['RENDER_WORKERS_REST_SECONDS', 'soon'],
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

describe('config.webProcesses and limitsPath', () => {
  it('defaults to one serving process per core and accepts 1', () => {
    expect(loadConfig({}).webProcesses).toBe(Math.max(1, os.availableParallelism()));
    expect(loadConfig({ WEB_PROCESSES: '1' }).webProcesses).toBe(1);
  });

  it('refuses anything but a whole number from 1 to 256', () => {
    expect(() => loadConfig({ WEB_PROCESSES: '0' })).toThrow(/WEB_PROCESSES must be between 1 and 256/);
    expect(() => loadConfig({ WEB_PROCESSES: 'two' })).toThrow(/WEB_PROCESSES must be a whole number/);
  });

  it('keeps the shared rate-limit file beside the database', () => {
    expect(loadConfig({ DATABASE_PATH: '/data/site.sqlite' }).limitsPath).toBe('/data/site-limits.sqlite');
    expect(loadConfig({ DATABASE_PATH: '/data/site' }).limitsPath).toBe('/data/site-limits.sqlite');
    expect(loadConfig({ DATABASE_PATH: ':memory:' }).limitsPath).toBe(':memory:');
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

describe('the comment spam settings', () => {
  it('require the form token and keep at most 1,000 unseen comments unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ commentRequireFormToken: true, commentHeldMax: 1000 });
    expect(loadConfig({ COMMENT_REQUIRE_FORM_TOKEN: 'false', COMMENT_HELD_MAX: '50' })).toMatchObject({
      commentRequireFormToken: false,
      commentHeldMax: 50,
    });
  });

  it('refuse a cap under 10 or over 1,000,000 and a token setting that is not true or false', () => {
    for (const value of ['0', '9', '1000001', 'many', '-5'])
      expect(() => loadConfig({ COMMENT_HELD_MAX: value }), value).toThrow(/COMMENT_HELD_MAX/);
    expect(() => loadConfig({ COMMENT_REQUIRE_FORM_TOKEN: 'maybe' })).toThrow(/COMMENT_REQUIRE_FORM_TOKEN/);
  });
});

describe('page memory by machine', () => {
  const GiB = 1024 ** 3;
  it('keeps 48 MiB a process on a machine with room, less on a small one, and PAGE_MEMORY_MB over both', () => {
    const big = { cores: 2, memoryBytes: 24 * GiB };
    expect(loadConfig({}, '/srv', big).pageMemoryMb).toBe(48);
    // The 1 GiB profile: one process, 32 MiB of pages; two processes on 1 GiB share that.
    expect(loadConfig({ WEB_PROCESSES: '1' }, '/srv', { cores: 1, memoryBytes: GiB }).pageMemoryMb).toBe(32);
    expect(loadConfig({}, '/srv', { cores: 2, memoryBytes: GiB }).pageMemoryMb).toBe(16);
    expect(loadConfig({}, '/srv', { cores: 4, memoryBytes: GiB / 4 }).pageMemoryMb).toBe(8);
    expect(loadConfig({ PAGE_MEMORY_MB: '200' }, '/srv', { cores: 1, memoryBytes: GiB }).pageMemoryMb).toBe(200);
  });
});

describe('test seams', () => {
  const seams = { PAGE_STORE_TEST_FAULT: 'full', PAGE_STORE_TEST_HOLD: '/tmp/hold', RENDER_HELP_TEST_WAIT_MS: '60000' };
  it('are read in a test build only; any other build ignores the variables', () => {
    expect(loadConfig({ ...seams, NODE_ENV: 'test' }).testSeams).toEqual({
      storeWritesFail: true,
      renderHoldFile: '/tmp/hold',
      markAnswers: true,
      renderHelpWaitMs: 60_000,
    });
    for (const NODE_ENV of ['production', undefined]) {
      expect(loadConfig({ ...seams, NODE_ENV }).testSeams).toEqual({
        storeWritesFail: false,
        renderHoldFile: null,
        markAnswers: false,
        renderHelpWaitMs: null,
      });
    }
  });
});
