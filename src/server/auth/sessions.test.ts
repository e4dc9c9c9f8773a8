import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { insertUser } from '../db/repositories/users.ts';
import {
  createSession,
  DEFAULT_SESSION_POLICY,
  invalidateSession,
  invalidateUserSessions,
  parseSessionToken,
  purgeExpiredSessions,
  validateSessionToken,
} from './sessions.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let db: Db;
let close: () => void;
let userId: number;
let now: number;
const clock = { now: () => now };

async function countSessions(): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeEach(async () => {
  ({ db, close } = await openMigratedDatabase());
  userId = (await insertUser(db, { username: 'ann', email: 'ann@example.org', passwordHash: 'x', isAdmin: false })).id;
  now = Date.UTC(2026, 0, 1);
});

afterEach(() => close());

describe('session tokens', () => {
  it('creates an <id>.<secret> token and stores only the SHA-256 of the secret', async () => {
    const { token, session } = await createSession(db, userId, clock);
    const parsed = parseSessionToken(token);
    expect(parsed).not.toBeNull();
    expect(parsed!.id).toBe(session.id);
    expect(Buffer.from(parsed!.secret, 'base64url')).toHaveLength(32);
    const row = await db.selectFrom('sessions').selectAll().where('id', '=', session.id).executeTakeFirstOrThrow();
    expect(Buffer.from(row.secret_hash).equals(crypto.createHash('sha256').update(parsed!.secret).digest())).toBe(true);
    expect(JSON.stringify(row)).not.toContain(parsed!.secret);
    expect(row.created_at).toBe(now);
  });

  it('makes a different token every time', async () => {
    const a = await createSession(db, userId, clock);
    const b = await createSession(db, userId, clock);
    expect(a.token).not.toBe(b.token);
    expect(a.session.id).not.toBe(b.session.id);
  });

  it('validates its own token and returns the user', async () => {
    const { token } = await createSession(db, userId, clock);
    const valid = await validateSessionToken(db, token, clock);
    expect(valid?.user).toEqual({ id: userId, username: 'ann', email: 'ann@example.org', is_admin: 0 });
  });

  it('rejects a tampered secret, a wrong id, garbage and an empty string', async () => {
    const { token } = await createSession(db, userId, clock);
    const [id, secret] = token.split('.') as [string, string];
    const flipped = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    expect(await validateSessionToken(db, `${id}.${flipped}`, clock)).toBeNull();
    const otherId = crypto.randomBytes(12).toString('base64url');
    expect(await validateSessionToken(db, `${otherId}.${secret}`, clock)).toBeNull();
    for (const bad of [
      '',
      'garbage',
      `${id}`,
      `${id}.`,
      `.${secret}`,
      `${id}.${secret}.x`,
      `${id}.${secret}x`,
      `${id} .${secret}`,
    ]) {
      expect(await validateSessionToken(db, bad, clock)).toBeNull();
    }
    // A wrong secret does not end the real session.
    expect(await validateSessionToken(db, token, clock)).not.toBeNull();
  });

  it('ends a session after the inactivity timeout and deletes it when seen', async () => {
    const { token } = await createSession(db, userId, clock);
    now += DEFAULT_SESSION_POLICY.inactivityMs - 1;
    expect(await validateSessionToken(db, token, clock)).not.toBeNull();
    now += DEFAULT_SESSION_POLICY.inactivityMs;
    expect(await validateSessionToken(db, token, clock)).toBeNull();
    expect(await countSessions()).toBe(0);
  });

  it('slides: each use pushes the inactivity deadline back', async () => {
    const { token, session } = await createSession(db, userId, clock);
    for (let day = 1; day <= 25; day += 3) {
      now = session.createdAt + day * DAY;
      expect(await validateSessionToken(db, token, clock), `day ${day}`).not.toBeNull();
    }
  });

  it('writes last_verified_at at most once per touch interval', async () => {
    const { token, session } = await createSession(db, userId, clock);
    const stored = async () =>
      (await db.selectFrom('sessions').select('last_verified_at').executeTakeFirstOrThrow()).last_verified_at;
    now += HOUR - 1;
    await validateSessionToken(db, token, clock);
    expect(await stored()).toBe(session.createdAt);
    now += 1;
    await validateSessionToken(db, token, clock);
    expect(await stored()).toBe(now);
  });

  it('ends even an active session at the absolute lifetime', async () => {
    const { token, session } = await createSession(db, userId, clock);
    for (let day = 1; day < 30; day += 1) {
      now = session.createdAt + day * DAY;
      expect(await validateSessionToken(db, token, clock), `day ${day}`).not.toBeNull();
    }
    now = session.createdAt + DEFAULT_SESSION_POLICY.absoluteMs;
    expect(await validateSessionToken(db, token, clock)).toBeNull();
    expect(await countSessions()).toBe(0);
  });

  it('honours a custom policy', async () => {
    const policy = { inactivityMs: 1000, absoluteMs: 5000, touchIntervalMs: 100 };
    const { token } = await createSession(db, userId, clock);
    now += 999;
    expect(await validateSessionToken(db, token, { ...clock, policy })).not.toBeNull();
    now += 999;
    expect(await validateSessionToken(db, token, { ...clock, policy })).not.toBeNull();
    now += 1000;
    expect(await validateSessionToken(db, token, { ...clock, policy })).toBeNull();
  });

  it('invalidates one session, or all of a user', async () => {
    const a = await createSession(db, userId, clock);
    const b = await createSession(db, userId, clock);
    await invalidateSession(db, a.session.id);
    expect(await validateSessionToken(db, a.token, clock)).toBeNull();
    expect(await validateSessionToken(db, b.token, clock)).not.toBeNull();
    await invalidateUserSessions(db, userId);
    expect(await validateSessionToken(db, b.token, clock)).toBeNull();
  });

  it('purges sessions past either limit and keeps live ones', async () => {
    await createSession(db, userId, clock); // will be idle too long
    now += 25 * DAY;
    const live = await createSession(db, userId, clock);
    const old = await createSession(db, userId, { now: () => now - 29 * DAY });
    // `old` was created 29 days ago but just used: only the absolute limit can end it.
    await db.updateTable('sessions').set({ last_verified_at: now }).where('id', '=', old.session.id).execute();
    now += 2 * DAY;
    expect(await purgeExpiredSessions(db, clock)).toBe(2);
    expect(await validateSessionToken(db, live.token, clock)).not.toBeNull();
  });

  it('ends the sessions of a deleted user', async () => {
    const { token } = await createSession(db, userId, clock);
    await db.deleteFrom('users').where('id', '=', userId).execute();
    expect(await validateSessionToken(db, token, clock)).toBeNull();
  });
});
