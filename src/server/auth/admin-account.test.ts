import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { findUserByEmail } from '../db/repositories/users.ts';
import { ensureAdmin } from './admin-account.ts';
import { registerAccount, authenticateWithPassword } from './accounts.ts';
import { createSession, validateSessionToken } from './sessions.ts';

let db: Db;
let close: () => void;

beforeEach(async () => {
  ({ db, close } = await openMigratedDatabase());
});

afterEach(() => close());

describe('ensureAdmin', () => {
  it('creates an admin with the given password', async () => {
    expect(await ensureAdmin(db, 'boss@example.org', 'boss-password')).toEqual({ email: 'boss@example.org', action: 'created' });
    expect(await authenticateWithPassword(db, { email: 'boss@example.org', password: 'boss-password' })).toMatchObject({
      is_admin: 1,
    });
  });

  it('generates a password for a new admin when none is given', async () => {
    const result = await ensureAdmin(db, 'boss@example.org', undefined);
    expect(result.generatedPassword).toMatch(/^[\w-]{16}$/);
    expect(await authenticateWithPassword(db, { email: 'boss@example.org', password: result.generatedPassword! })).not.toBeNull();
  });

  it('changes nothing, and keeps sessions, when the same password comes again', async () => {
    await ensureAdmin(db, 'boss@example.org', 'boss-password');
    const user = await findUserByEmail(db, 'boss@example.org');
    const { token } = await createSession(db, user!.id);
    expect((await ensureAdmin(db, 'BOSS@example.org', 'boss-password')).action).toBe('unchanged');
    expect(await validateSessionToken(db, token)).not.toBeNull();
  });

  it('changes the password and ends the old sessions', async () => {
    await ensureAdmin(db, 'boss@example.org', 'boss-password');
    const user = await findUserByEmail(db, 'boss@example.org');
    const { token } = await createSession(db, user!.id);
    expect((await ensureAdmin(db, 'boss@example.org', 'new-password')).action).toBe('updated');
    expect(await validateSessionToken(db, token)).toBeNull();
    expect(await authenticateWithPassword(db, { email: 'boss@example.org', password: 'new-password' })).not.toBeNull();
  });

  it('promotes a reader and keeps their password when none is given', async () => {
    await registerAccount(db, { username: 'ann', email: 'ann@example.org', password: 'ann-password' });
    expect((await ensureAdmin(db, 'ann@example.org', undefined)).action).toBe('promoted');
    expect(await authenticateWithPassword(db, { email: 'ann@example.org', password: 'ann-password' })).toMatchObject({
      is_admin: 1,
    });
  });
});
