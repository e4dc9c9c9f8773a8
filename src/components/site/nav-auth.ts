import type { AuthState } from '../../stores/auth.ts';
import { ACCOUNT_PAGES, ADMIN_HOME } from '../../shared/site-map/paths.ts';

/**
 * The nav's sign-in area, painted in the browser without React: pages are shared by every reader,
 * so the server always sends the anonymous state (a Login link) and this fills in who is signed in.
 */

function link(href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}

/**
 * Shows Login, or the username and Log Out, with the signed-in person's own page first: the
 * Dashboard for an admin, My library for a reader. `data-auth` tells tests and styles which.
 */
export function paintNavAuth(box: HTMLElement, state: AuthState): void {
  box.dataset.auth = state.status;
  if (state.status !== 'user' || !state.username) {
    if (!box.querySelector(`a[href="${ACCOUNT_PAGES.login}"]`) || box.children.length !== 1)
      box.replaceChildren(link(ACCOUNT_PAGES.login, 'Login'));
    return;
  }
  const name = document.createElement('span');
  name.className = 'nav-username';
  name.textContent = state.username;
  const signOut = link(ACCOUNT_PAGES.logout, 'Log Out');
  if (state.isAdmin) box.replaceChildren(link(ADMIN_HOME, 'Dashboard'), name, signOut);
  else box.replaceChildren(link(ACCOUNT_PAGES.library, 'My library'), name, signOut);
}
