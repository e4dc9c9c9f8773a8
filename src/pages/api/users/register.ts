import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { register } from '../../../server/auth/login.ts';

/** POST /api/users/register {username,email,password} -> 201 {message,user}. Never creates an admin. */
export const POST = apiRoute(async (context) => {
  const { app } = context.locals;
  const body = await readJsonObject(context.request, 16 * 1024);
  const user = await register(app, { body, clientIp: readClientIp(context, app.config.trustProxy) });
  return json(
    { message: 'Registration successful! Please log in.', user: { id: user.id, username: user.username, email: user.email } },
    201,
  );
});

export const ALL = apiRoute(() => methodNotAllowed(['POST']));
