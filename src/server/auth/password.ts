import { hash, verify } from '@node-rs/argon2';

export { PASSWORD_MAX, PASSWORD_MIN } from '../../shared/validation/account.ts';

// OWASP's Argon2id floor (19 MiB, t=2, p=1) is @node-rs/argon2's default; stated here so a
// library default change cannot weaken it silently.
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Made when the module loads, so even the first unknown email costs one verify, not a hash too.
const dummyHash = hashPassword('dummy-password-for-timing');

/** Spends the same time as a real check, so an unknown email cannot be told apart by timing. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(await dummyHash, password);
  return false;
}
