import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config.mail', () => {
  it('is off without SMTP_URL', () => {
    expect(loadConfig({}).mail).toBeNull();
  });

  it('reads SMTP_URL and MAIL_FROM', () => {
    const env = { SMTP_URL: 'smtps://user:pw@mail.example.org:465', MAIL_FROM: 'Study Site <site@example.org>' };
    expect(loadConfig(env).mail).toEqual({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM });
    expect(loadConfig({ SMTP_URL: 'smtp://localhost:25', MAIL_FROM: 'site@example.org' }).mail?.from).toBe('site@example.org');
  });

  it('refuses a URL that is not smtp(s), a missing or malformed MAIL_FROM, naming the variable', () => {
    for (const [env, name] of [
      [{ SMTP_URL: 'http://mail.example.org', MAIL_FROM: 'a@b.org' }, 'SMTP_URL'],
      [{ SMTP_URL: 'not a url', MAIL_FROM: 'a@b.org' }, 'SMTP_URL'],
      [{ SMTP_URL: 'smtp://mail.example.org' }, 'MAIL_FROM'],
      [{ SMTP_URL: 'smtp://mail.example.org', MAIL_FROM: 'nobody' }, 'MAIL_FROM'],
      [{ SMTP_URL: 'smtp://mail.example.org', MAIL_FROM: 'A <a@b.org>\r\nBcc: x@y.org' }, 'MAIL_FROM'],
    ] as const) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(new RegExp(name));
    }
  });
});
