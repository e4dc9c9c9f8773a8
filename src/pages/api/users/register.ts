import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { register } from '../../../server/auth/login.ts';

/** POST /api/users/register {username,email,password} -> 201 {message,user}. Never creates an admin. */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { app } = context.locals;
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    const user = await register(app, { body, clientIp: readClientIp(context, app.config.trustProxy) });
    const answer = { id: user.id, username: user.username, email: user.email };
    return json({ message: 'Registration successful! Please log in.', user: answer }, 201);
  },
});
