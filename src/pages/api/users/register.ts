import { json, readJsonObject } from '../../../server/api/respond.ts';
import { route } from '../../../server/api/route.ts';
import { BODY_LIMITS } from '../../../server/api/body-limits.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { register } from '../../../server/auth/login.ts';

/**
 * POST /api/users/register {username,email,password} -> 201 {message,user[,confirm_email]}. Never
 * creates an admin. confirm_email: a link was mailed and login waits for it (the owner's setting).
 */
export const { POST, ALL } = route({
  POST: async (context) => {
    const { app } = context.locals;
    const body = await readJsonObject(context.request, BODY_LIMITS.account);
    const { user, confirm_email, message } = await register(app, {
      body,
      clientIp: readClientIp(context, app.config.trustProxy),
    });
    const answer = { id: user.id, username: user.username, email: user.email };
    // The answer keeps its documented shape; confirm_email is added only when the owner asks for it.
    return json({ message, user: answer, ...(confirm_email ? { confirm_email } : {}) }, 201);
  },
});
