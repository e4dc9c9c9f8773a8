/// <reference types="astro/client" />
type AppContextForLocals = import('./server/context.ts').AppContext;
type PublicUserForLocals = import('./server/db/repositories/users.ts').PublicUser;
type SearchPageDecisionForLocals = import('./server/content/search-page.ts').SearchPageDecision;

declare namespace App {
  interface Locals {
    app: AppContextForLocals;
    /** The signed-in user, checked against the database on this request; null when anonymous. */
    user: PublicUserForLocals | null;
    /** The id of the session behind `user`, for logout. */
    sessionId: string | null;
    /** /blogs?search=: whether it may search, decided by the front server before the page renders (absent: the page decides). */
    searchPage?: SearchPageDecisionForLocals;
  }
}
