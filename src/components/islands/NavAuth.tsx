import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { $auth, loadAuthFromStorage, refreshAuth } from '../../stores/auth.ts';

/**
 * The nav's sign-in area. Pages are shared by every reader, so the server always renders the
 * anonymous state; the signed-in state is painted here in the browser (DESIGN.md section 2).
 */
export default function NavAuth() {
  const auth = useStore($auth);

  useEffect(() => {
    loadAuthFromStorage();
    void refreshAuth();
  }, []);

  if (auth.status === 'user') {
    return (
      <div className="nav-auth">
        <a href="/admin">Dashboard</a>
        <span className="nav-username">{auth.username}</span>
        <a href="/logout">Log Out</a>
      </div>
    );
  }
  return (
    <div className="nav-auth">
      <a href="/login">Login</a>
    </div>
  );
}
