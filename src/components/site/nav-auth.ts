import type { AuthState } from '../../stores/auth.ts';

/**
 * The nav's sign-in area, painted in the browser without React: pages are shared by every reader,
 * so the server always sends the anonymous state (a Login link) and this fills in who is signed in.
 */

/**
 * Where "Dashboard" leads (SPEC.md section 6: every signed-in reader sees it). Only admins have
 * the admin panel; for anyone else /login is their account page ("You are logged in as ...").
 */
export function dashboardHref(state: Pick<AuthState, 'isAdmin'>): string {
  return state.isAdmin ? '/admin' : '/login';
}

function link(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

/** Shows Login, or Dashboard, the username and Log Out; `data-auth` tells tests and styles which. */
export function paintNavAuth(box: HTMLElement, state: AuthState): void {
  box.dataset.auth = state.status;
  if (state.status !== 'user' || !state.username) {
    if (!box.querySelector('a[href="/login"]') || box.children.length !== 1) box.replaceChildren(link('/login', 'Login'));
    return;
  }
  const name = document.createElement('span');
  name.className = 'nav-username';
  name.textContent = state.username;
  box.replaceChildren(link(dashboardHref(state), 'Dashboard'), name, link('/logout', 'Log Out'));
}
