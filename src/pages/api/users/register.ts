import { apiRoute, json, methodNotAllowed, readJsonObject } from '../../../server/api/respond.ts';
import { throwIfInvalid } from '../../../server/errors.ts';
import { validateRegistration } from '../../../shared/validation/account.ts';
import { registerAccount } from '../../../server/auth/accounts.ts';
import { readClientIp } from '../../../server/api/client-ip.ts';
import { getAuthLimiters, tooManyAttempts } from '../../../server/auth/limits.ts';

/** POST /api/users/register {username,email,password} -> 201 {message,user}. Never creates an admin. */
export const POST = apiRoute(async (context) => {
  const { db, config } = context.locals.app;
  const input = throwIfInvalid(validateRegistration(await readJsonObject(context.request, 16 * 1024)));

  // Counted once the input is well formed: typos cost nothing, probing for taken emails does.
  const decision = getAuthLimiters().registerIp.take(readClientIp(context, config.trustProxy));
  if (!decision.allowed) throw tooManyAttempts(decision, 'Too many sign-ups from this address. Please try again later.');

  const user = await registerAccount(db, input);
  return json(
    { message: 'Registration successful! Please log in.', user: { id: user.id, username: user.username, email: user.email } },
    201,
  );
});

export const ALL = apiRoute(() => methodNotAllowed(['POST']));
