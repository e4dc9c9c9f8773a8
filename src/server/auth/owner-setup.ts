import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { deleteSetupToken, ensureSetupToken, readSetupToken } from '../db/repositories/owner-setup.ts';
import { findFirstAdmin, findUserByEmail, findUserByUsername, insertUser, type PublicUser } from '../db/repositories/users.ts';
import { AppError, throwIfInvalid } from '../errors.ts';
import { writeSettings } from '../content/site-settings.ts';
import { tag } from '../page-store/site-tags.ts';
import { hashPassword } from './password.ts';
import { createSession } from './sessions.ts';
import { SETUP_MESSAGES, validateSetupInput } from '../../shared/validation/setup.ts';
import { setupHref } from '../../shared/site-map/paths.ts';

/**
 * First run: while the site has no admin, a random setup token (kept in the database, so every
 * start and `npm run admin -- --setup-link` show the same link) lets one person create the owner's
 * account. It is deleted in the transaction that creates the owner, so it works once; and it
 * works only while no admin exists (an admin made another way ends it too).
 */

export function setupUrl(publicOrigin: string, token: string): string {
  return new URL(setupHref(token), publicOrigin).href;
}

/** The setup link while the site has no admin (made on first use), else null (and no token is kept). */
export async function ensureSetupLink(db: Db, publicOrigin: string): Promise<string | null> {
  if (await findFirstAdmin(db)) {
    await deleteSetupToken(db);
    return null;
  }
  const token = await ensureSetupToken(db, crypto.randomBytes(24).toString('base64url'));
  return setupUrl(publicOrigin, token);
}

function sameToken(given: string, stored: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(stored).digest();
  return crypto.timingSafeEqual(a, b);
}

export type SetupState = 'ready' | 'owner-exists' | 'bad-link';

/** What the setup page shows for a token. */
export async function setupState(db: Db, token: string | null): Promise<SetupState> {
  if (await findFirstAdmin(db)) return 'owner-exists';
  const stored = await readSetupToken(db);
  return stored && token && sameToken(token, stored) ? 'ready' : 'bad-link';
}

const ownerExists = () => new AppError('conflict', SETUP_MESSAGES.ownerExists);
const badLink = () => new AppError('forbidden', SETUP_MESSAGES.badLink);

/**
 * Creates the owner (an admin), sets the site title, uses up the token and opens a session. The
 * checks run again inside the transaction, so two submissions of one link make one owner.
 */
export async function completeSetup(
  app: AppContext,
  body: Record<string, unknown>,
): Promise<{ token: string; user: PublicUser }> {
  const values = throwIfInvalid(validateSetupInput(body));
  const state = await setupState(app.db, values.token);
  if (state === 'owner-exists') throw ownerExists();
  if (state === 'bad-link') throw badLink();
  const passwordHash = await hashPassword(values.password);
  const user = await app.db.transaction().execute(async (trx) => {
    if (await findFirstAdmin(trx)) throw ownerExists();
    const stored = await readSetupToken(trx);
    if (!stored || !sameToken(values.token, stored)) throw badLink();
    if (await findUserByEmail(trx, values.email))
      throw new AppError('conflict', 'That email is already registered.', {
        fields: { email: 'That email is already registered.' },
      });
    if (await findUserByUsername(trx, values.username))
      throw new AppError('conflict', 'That username is taken.', { fields: { username: 'That username is taken.' } });
    const owner = await insertUser(trx, { username: values.username, email: values.email, passwordHash, isAdmin: true });
    await deleteSetupToken(trx);
    await writeSettings(trx, { site_title: values.site_title });
    return owner;
  });
  await app.pageCache.invalidate([tag.settings]);
  const { token } = await createSession(app.db, user.id);
  return { token, user };
}
