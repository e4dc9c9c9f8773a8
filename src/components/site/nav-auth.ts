import type { AuthState } from '../../stores/auth.ts';

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
    if (!box.querySelector('a[href="/login"]') || box.children.length !== 1) box.replaceChildren(link('/login', 'Login'));
    return;
  }
  const name = document.createElement('span');
  name.className = 'nav-username';
  name.textContent = state.username;
  const signOut = link('/logout', 'Log Out');
  if (state.isAdmin) box.replaceChildren(link('/admin', 'Dashboard'), name, signOut);
  else box.replaceChildren(link('/library', 'My library'), name, signOut);
}
