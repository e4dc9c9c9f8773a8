import { atom } from 'nanostores';
import { me } from '../client/api.ts';

/**
 * Display state of the signed-in reader, shared by the nav and the login/logout screens.
 * Never holds the session token: that lives in an HttpOnly cookie. The username and admin flag
 * are also kept in localStorage (docs/product.md#what-is-stored) so the nav can paint them before
 * GET /api/users/me answers; the server's answer always wins.
 */
export interface AuthState {
  status: 'unknown' | 'anonymous' | 'user';
  username: string | null;
  isAdmin: boolean;
}

export const $auth = atom<AuthState>({ status: 'unknown', username: null, isAdmin: false });

const USERNAME_KEY = 'username';
const ADMIN_KEY = 'is_admin';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** Paints the last known display state from localStorage (no network). */
export function loadAuthFromStorage(): void {
  const store = storage();
  const username = store?.getItem(USERNAME_KEY) ?? null;
  if (username) $auth.set({ status: 'user', username, isAdmin: store?.getItem(ADMIN_KEY) === 'true' });
}

export function setSignedIn(username: string, isAdmin: boolean): void {
  const store = storage();
  store?.setItem(USERNAME_KEY, username);
  store?.setItem(ADMIN_KEY, String(isAdmin));
  $auth.set({ status: 'user', username, isAdmin });
}

export function clearAuth(): void {
  const store = storage();
  store?.removeItem(USERNAME_KEY);
  store?.removeItem(ADMIN_KEY);
  store?.removeItem('token');
  $auth.set({ status: 'anonymous', username: null, isAdmin: false });
}

/** Asks the server who is signed in (GET /api/users/me) and updates the store. Errors are only logged. */
export async function refreshAuth(): Promise<void> {
  try {
    const body = await me();
    if (body.user) setSignedIn(body.user.username, body.user.is_admin);
    else clearAuth();
  } catch (error) {
    console.error('Could not load the signed-in user', error);
  }
}
