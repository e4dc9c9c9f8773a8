/// <reference types="astro/client" />
type AppContextForLocals = import('./server/context.ts').AppContext;
type PublicUserForLocals = import('./server/db/repositories/users.ts').PublicUser;

declare namespace App {
  interface Locals {
    app: AppContextForLocals;
    /** The signed-in user, checked against the database on this request; null when anonymous. */
    user: PublicUserForLocals | null;
    /** The id of the session behind `user`, for logout. */
    sessionId: string | null;
  }
}
