import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { call, expectError, sendJson, type Json } from './http-support.ts';

/**
 * Two-factor sign-in for admins against the real built server, with codes the test computes from
 * the shared secret (RFC 6238): enrolment with a QR code, login needing the code (Bearer clients
 * too), a replayed code refused, a code one step off accepted, recovery codes used once, the
 * owner's switch that requires it, and wrong codes counted like wrong passwords.
 */

let site: TestServer;

beforeAll(async () => {
  site = await startServer({ env: { RATE_LIMIT_LOGIN_ACCOUNT: '8' } });
});
afterAll(async () => {
  await site?.stop();
});

const STEP_MS = 30_000;
const codeAt = (secret: string, at: number) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
const logIn = (body: Json) =>
  sendJson(site, 'POST', '/api/users/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, ...body });

/** Waits for the next 30-second step to begin, so a code of "now" is one no earlier login used. */
async function nextStep(): Promise<number> {
  const next = (Math.floor(Date.now() / STEP_MS) + 1) * STEP_MS;
  await new Promise((resolve) => setTimeout(resolve, next - Date.now() + 50));
  return Date.now();
}

describe('two-factor sign-in', () => {
  let secret: string;
  let recovery: string[];

  it('enrols with a QR code and a code from the app, and hands out ten recovery codes', async () => {
    const admin = bearer(await loginAsAdmin(site));
    const started = await sendJson(site, 'POST', '/api/account/two-factor', {}, admin);
    expect(started.status, started.text).toBe(200);
    const enrolment = started.body as { secret: string; uri: string; qr_svg: string };
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/.+secret=/);
    expect(enrolment.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    secret = enrolment.secret;
    // Not in force until confirmed: the password alone still logs in.
    expect((await logIn({})).status).toBe(200);

    const wrong = expectError(await sendJson(site, 'POST', '/api/account/two-factor/confirm', { code: '000000' }, admin), 401);
    expect(wrong.error).toBe('second_factor_invalid');
    const confirmed = await sendJson(
      site,
      'POST',
      '/api/account/two-factor/confirm',
      { code: codeAt(secret, Date.now()) },
      admin,
    );
    expect(confirmed.status, confirmed.text).toBe(200);
    recovery = (confirmed.body as { recovery_codes: string[] }).recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect(((await call(site, '/api/account', { headers: admin })).body as Json).two_factor).toBe(true);
  });

  it('asks for the code at login, Bearer clients included, and takes a right one once', async () => {
    const missing = expectError(await logIn({}), 401, 'second_factor_required');
    expect(missing.message).toMatch(/code/);
    expectError(
      await logIn({ code: '123456' === codeAt(secret, Date.now()) ? '654321' : '123456' }),
      401,
      'second_factor_invalid',
    );

    const now = await nextStep();
    const code = codeAt(secret, now);
    const first = await logIn({ code });
    expect(first.status, first.text).toBe(200);
    expect((first.body as Json).token).toEqual(expect.any(String));
    // The same code again, still within its step: refused.
    expectError(await logIn({ code }), 401, 'second_factor_invalid');
  });

  it('accepts a code from a clock one step ahead, and refuses one two steps off', async () => {
    const now = await nextStep();
    expectError(await logIn({ code: codeAt(secret, now - 2 * STEP_MS) }), 401, 'second_factor_invalid');
    const ahead = await logIn({ code: codeAt(secret, now + STEP_MS) });
    expect(ahead.status, ahead.text).toBe(200);
  });

  it('takes a recovery code once', async () => {
    const used = await logIn({ code: recovery[0] });
    expect(used.status, used.text).toBe(200);
    expectError(await logIn({ code: recovery[0] }), 401, 'second_factor_invalid');
    expect((await logIn({ code: recovery[1]!.toUpperCase() })).status).toBe(200);
  });

  it('counts wrong codes like wrong passwords', async () => {
    let answer = await logIn({ code: 'aaaaa-aaaaa' });
    for (let i = 0; i < 20 && answer.status !== 429; i++) answer = await logIn({ code: 'aaaaa-aaaaa' });
    expectError(answer, 429, 'rate_limited');
  });
});

describe('the owner requires two-factor sign-in', () => {
  it('is refused to an admin without it, then keeps such admins out of the admin screens until they set it up', async () => {
    const server = await startServer();
    try {
      const session = await sendJson(server, 'POST', '/api/users/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
      const admin = bearer(session.body as { token: string });
      const refused = expectError(
        await sendJson(server, 'PUT', '/api/admin/account-policy', { require_admin_2fa: true }, admin),
        409,
      );
      expect(refused.message).toMatch(/your own account first/);

      const enrolment = (await sendJson(server, 'POST', '/api/account/two-factor', {}, admin)).body as { secret: string };
      await sendJson(server, 'POST', '/api/account/two-factor/confirm', { code: codeAt(enrolment.secret, Date.now()) }, admin);
      const saved = await sendJson(server, 'PUT', '/api/admin/account-policy', { require_admin_2fa: true }, admin);
      expect((saved.body as Json).require_admin_2fa).toBe(true);
      expect((await call(server, '/api/admin/settings', { headers: admin })).status).toBe(200);

      // Turned off again (the current password required): this admin is now held at /account.
      expectError(
        await call(server, '/api/account/two-factor', {
          method: 'DELETE',
          headers: { ...admin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ current_password: 'wrong-one' }),
        }),
        403,
        'wrong_password',
      );
      const off = await call(server, '/api/account/two-factor', {
        method: 'DELETE',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ current_password: ADMIN_PASSWORD }),
      });
      expect(off.status, off.text).toBe(200);
      expectError(await call(server, '/api/admin/settings', { headers: admin }), 403, 'two_factor_setup_required');
      const page = await call(server, '/admin/settings', { headers: admin, redirect: 'manual' });
      expect(page.status).toBe(302);
      expect(page.headers.get('location')).toBe('/account#two-factor');
      expect(((await call(server, '/api/account', { headers: admin })).body as Json).two_factor_required).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
