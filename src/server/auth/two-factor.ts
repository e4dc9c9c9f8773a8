import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  advanceTotpStep,
  confirmTotpSecret,
  deleteTwoFactor,
  findTotpSecret,
  replaceRecoveryCodes,
  saveTotpSecret,
  spendRecoveryCode,
} from '../db/repositories/two-factor.ts';
import { AppError } from '../errors.ts';
import { getSiteSettings } from '../content/site-settings.ts';

/**
 * Two-factor sign-in for admins: TOTP (RFC 6238: SHA-1, 6 digits, 30 s) with otpauth, a code
 * accepted one step either side of now (a phone's clock a little off), and never twice: the step
 * of the last accepted code is kept and only a later one passes. Ten single-use recovery codes,
 * SHA-256 stored. The QR code of the enrolment is an SVG made here (qrcode), no outside service.
 */
export const PERIOD_SECONDS = 30;
const RECOVERY_CODES = 10;

function totpFor(secret: string, label = 'admin', issuer = 'Study Site'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

export const hashRecoveryCode = (code: string) =>
  crypto.createHash('sha256').update(code.trim().toLowerCase().replace(/[\s-]/g, '')).digest('hex');

function makeRecoveryCode(): string {
  const raw = crypto.randomBytes(8).toString('hex').slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** True when this user signs in with a second factor (an enrolment was confirmed). */
export async function hasTwoFactor(db: Db, userId: number): Promise<boolean> {
  return Boolean((await findTotpSecret(db, userId))?.confirmed_at);
}

/**
 * Checks a second factor: a 6-digit code from the app (each accepted once) or an unused recovery
 * code (then spent). Only for a confirmed enrolment, unless `pending` (the enrolment's own check).
 */
export async function verifySecondFactor(
  db: Db,
  userId: number,
  code: string,
  now = Date.now(),
  pending = false,
): Promise<boolean> {
  const row = await findTotpSecret(db, userId);
  if (!row || (!row.confirmed_at && !pending)) return false;
  const token = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(token)) {
    const delta = totpFor(row.secret).validate({ token, timestamp: now, window: 1 });
    if (delta === null) return false;
    const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
    return advanceTotpStep(db, userId, step);
  }
  if (pending) return false;
  return spendRecoveryCode(db, userId, hashRecoveryCode(token), new Date(now).toISOString());
}

function adminOnly(user: { is_admin: number }): void {
  if (user.is_admin !== 1) throw new AppError('forbidden', 'Two-factor sign-in is for admin accounts.');
}

/** Starts an enrolment: a new secret (not yet in force), its otpauth URI and the QR code of it. */
export async function startEnrolment(
  app: AppContext,
  user: { id: number; email: string; is_admin: number },
): Promise<{ secret: string; uri: string; qr_svg: string }> {
  adminOnly(user);
  if (await hasTwoFactor(app.db, user.id))
    throw new AppError('conflict', 'Two-factor sign-in is already on. Turn it off first to enrol a new device.');
  const secret = new Secret({ size: 20 }).base32;
  await saveTotpSecret(app.db, user.id, secret, new Date().toISOString());
  const uri = totpFor(secret, user.email, (await getSiteSettings(app)).site_title).toString();
  const qr_svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qr_svg };
}

/** Ends the enrolment with a code from the app: two-factor is on, and here are the recovery codes (shown once). */
export async function confirmEnrolment(
  app: AppContext,
  user: { id: number; is_admin: number },
  body: Record<string, unknown>,
): Promise<{ recovery_codes: string[]; message: string }> {
  adminOnly(user);
  const code = typeof body.code === 'string' ? body.code : '';
  const row = await findTotpSecret(app.db, user.id);
  if (!row || row.confirmed_at) throw new AppError('conflict', 'Start the set-up first: there is no new secret waiting.');
  if (!(await verifySecondFactor(app.db, user.id, code, Date.now(), true)))
    throw new AppError('second_factor_invalid', 'That code is not right. Enter the 6 digits your app shows now.', {
      fields: { code: 'That code is not right.' },
    });
  const codes = Array.from({ length: RECOVERY_CODES }, makeRecoveryCode);
  await app.db.transaction().execute(async (trx) => {
    await confirmTotpSecret(trx, user.id, new Date().toISOString());
    await replaceRecoveryCodes(trx, user.id, codes.map(hashRecoveryCode));
  });
  return { recovery_codes: codes, message: 'Two-factor sign-in is on. Keep the recovery codes somewhere safe.' };
}

export async function turnOffTwoFactor(app: AppContext, userId: number): Promise<{ message: string }> {
  await deleteTwoFactor(app.db, userId);
  return { message: 'Two-factor sign-in is off.' };
}
