import { buildAccount } from './builders.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './server.ts';

/**
 * Accounts for tests, made through the real API. A session is usable both ways:
 * `{ headers: { Authorization: `Bearer ${token}` } }` or `{ headers: { Cookie: cookie } }` (a cookie
 * request that writes must also send `Origin: server.origin`, see the CSRF rule in src/middleware.ts).
 */
interface HasOrigin {
  origin: string;
}

export interface Session {
  token: string;
  /** The `name=value` pair to send back as a Cookie header. */
  cookie: string;
  username: string;
  isAdmin: boolean;
}

export interface RegisteredUser {
  id: number;
  username: string;
  email: string;
  password: string;
}

/** The user builder under the name the auth tests know it by (tests/support/builders.ts owns it). */
export { buildAccount as uniqueAccount };

export async function login(server: HasOrigin, email: string, password: string): Promise<Session> {
  const response = await fetch(`${server.origin}/api/users/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`Login as ${email} answered ${response.status}: ${text}`);
  const body = JSON.parse(text) as { token: string; is_admin: boolean; username: string };
  const setCookie = response.headers.getSetCookie().find((c) => /^(__Host-)?session=/.test(c));
  if (!setCookie) throw new Error(`Login as ${email} set no session cookie`);
  return { token: body.token, cookie: setCookie.split(';')[0]!, username: body.username, isAdmin: body.is_admin };
}

export function loginAsAdmin(server: HasOrigin): Promise<Session> {
  return login(server, ADMIN_EMAIL, ADMIN_PASSWORD);
}

/**
 * Registers a reader account (random unique names unless given). A test server allows
 * RATE_LIMIT_REGISTER_IP sign-ups per hour (default 3); start it with a larger value to make more.
 */
export async function registerUser(
  server: HasOrigin,
  input: Partial<{ username: string; email: string; password: string }> = {},
): Promise<RegisteredUser> {
  const account = { ...buildAccount(), ...input };
  const response = await fetch(`${server.origin}/api/users/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(account),
  });
  const text = await response.text();
  if (response.status === 429) {
    throw new Error(`Registration rate limit reached: start the server with env { RATE_LIMIT_REGISTER_IP: '100' }. ${text}`);
  }
  if (response.status !== 201) throw new Error(`Register ${account.email} answered ${response.status}: ${text}`);
  const body = JSON.parse(text) as { user: { id: number } };
  return { id: body.user.id, ...account };
}

/** Registers a reader and logs in as them. */
export async function loginAsNewUser(
  server: HasOrigin,
  input?: Partial<{ username: string; email: string; password: string }>,
): Promise<Session & { user: RegisteredUser }> {
  const user = await registerUser(server, input);
  return { ...(await login(server, user.email, user.password)), user };
}

export function bearer(session: Pick<Session, 'token'>): Record<string, string> {
  return { Authorization: `Bearer ${session.token}` };
}
