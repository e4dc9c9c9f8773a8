import { verify } from '@node-rs/argon2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { findUserByEmail } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { authenticateWithPassword, registerAccount } from './accounts.ts';

// The real argon2, watched: the tests see which hashes a login verifies against.
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify) };
});

let db: Db;
let close: () => void;

beforeEach(async () => {
  ({ db, close } = await openMigratedDatabase());
});

afterEach(() => close());

const ann = { username: 'ann', email: 'Ann@Example.org', password: 'correct horse' };

async function conflictOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(409);
  return error as AppError;
}

describe('registerAccount', () => {
  it('creates a reader, never an admin, with an argon2id hash', async () => {
    const user = await registerAccount(db, ann);
    expect(user).toMatchObject({ username: 'ann', email: 'Ann@Example.org', is_admin: 0 });
    const row = await findUserByEmail(db, 'ann@example.org');
    expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.password_hash).not.toContain(ann.password);
  });

  it('refuses a taken email whatever its case, and a taken username whatever its case', async () => {
    await registerAccount(db, ann);
    const byEmail = await conflictOf(registerAccount(db, { ...ann, username: 'other', email: 'ANN@example.ORG' }));
    expect(byEmail.fields).toHaveProperty('email');
    const byName = await conflictOf(registerAccount(db, { ...ann, username: 'ANN', email: 'new@example.org' }));
    expect(byName.fields).toHaveProperty('username');
  });

  it('lets the unique index settle two sign-ups racing for one email', async () => {
    const results = await Promise.allSettled([
      registerAccount(db, { ...ann, username: 'first' }),
      registerAccount(db, { ...ann, username: 'second' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as AppError).status).toBe(409);
  });
});

describe('authenticateWithPassword', () => {
  it('answers the user for the right password, with the email in any case', async () => {
    await registerAccount(db, ann);
    expect(await authenticateWithPassword(db, { email: 'ann@EXAMPLE.org', password: ann.password })).toMatchObject({
      username: 'ann',
    });
  });

  it('answers null for a wrong password and for an unknown email', async () => {
    await registerAccount(db, ann);
    expect(await authenticateWithPassword(db, { email: ann.email, password: 'wrong password' })).toBeNull();
    expect(await authenticateWithPassword(db, { email: 'nobody@example.org', password: ann.password })).toBeNull();
  });

  it('does the same hash work for an unknown email as for a wrong password', async () => {
    await registerAccount(db, ann);
    const stored = (await findUserByEmail(db, ann.email))!.password_hash;
    // `$argon2id$v=19$m=…,t=…,p=…$salt$hash`: the cost of a verify is in its parameters.
    const costOf = (hash: string) => hash.split('$').slice(1, 4).join('$');
    const verified = vi.mocked(verify);

    verified.mockClear();
    expect(await authenticateWithPassword(db, { email: ann.email, password: 'wrong password' })).toBeNull();
    expect(verified.mock.calls).toEqual([[stored, 'wrong password']]);

    verified.mockClear();
    expect(await authenticateWithPassword(db, { email: 'nobody@example.org', password: 'wrong password' })).toBeNull();
    expect(verified.mock.calls).toHaveLength(1);
    const [dummy, password] = verified.mock.calls[0]!;
    expect(password).toBe('wrong password');
    expect(costOf(dummy as string)).toBe(costOf(stored));
    expect(costOf(stored)).toMatch(/^argon2id\$v=19\$m=19456,t=2,p=1$/);
    // The verify really ran to its end (a rejected, malformed hash would return at once).
    await expect(verified.mock.results[0]!.value).resolves.toBe(false);
  });
});
