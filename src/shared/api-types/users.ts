// Accounts: who is signed in, login, registration, the first-run setup.
/** The signed-in user as GET /api/users/me shows it. */
export interface UserDto {
  id: number;
  username: string;
  email: string;
  is_admin: boolean;
}

/** GET /api/users/me. */
export interface MeAnswer {
  user: UserDto | null;
}

/** POST /api/users/login; the session itself travels in the HttpOnly cookie. */
export interface LoginAnswer {
  token: string;
  is_admin: boolean;
  username: string;
}

/** POST /api/users/register (201). */
export interface RegisterAnswer {
  message: string;
  user: Omit<UserDto, 'is_admin'>;
  /** Present (true) when a link was mailed to confirm the email; login waits for it (the owner's setting). */
  confirm_email?: true;
}

/** POST /api/setup: the owner's account, signed in. */
export interface SetupAnswer {
  username: string;
  is_admin: true;
  message: string;
}
