import { describe, expect, it } from 'vitest';
import { sessionCookieName, sessionCookieOptions } from './cookies.ts';

describe('session cookie', () => {
  it('is a __Host- cookie, Secure, on an https site', () => {
    const config = { publicOrigin: 'https://site.example', production: true };
    expect(sessionCookieName(config)).toBe('__Host-session');
    expect(sessionCookieOptions(config)).toEqual({
      httpOnly: true,
      secure: true,
      sameSite: 'lax',
      path: '/',
      maxAge: 30 * 24 * 3600,
    });
  });

  it('is plain `session` on http; Secure only in production', () => {
    expect(sessionCookieName({ publicOrigin: 'http://127.0.0.1:4321', production: false })).toBe('session');
    expect(sessionCookieOptions({ publicOrigin: 'http://127.0.0.1:4321', production: false }).secure).toBe(false);
    expect(sessionCookieOptions({ publicOrigin: 'http://localhost:4321', production: true }).secure).toBe(true);
  });
});
