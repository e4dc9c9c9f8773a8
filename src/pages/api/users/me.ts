import { json } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';

/** GET /api/users/me -> the signed-in user or {user:null}; never cached (json() sends no-store). */
export const { GET, ALL } = route({
  GET: (context) => {
    const user = context.locals.user;
    return json({
      user: user ? { id: user.id, username: user.username, email: user.email, is_admin: user.is_admin === 1 } : null,
    });
  },
});
