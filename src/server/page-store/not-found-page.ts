/**
 * The site's 404 page as the store keeps it: one page, rendered from Astro's `/404` route and
 * carrying its tags (the nav and the settings), answered with status 404 for every address no
 * route claims (`front/not-found-responder.ts`). One key for all of them, so unknown addresses
 * never add pages to the store, and a settings or nav change refreshes it like any page.
 */
export const NOT_FOUND_KEY = '/404';

/** The status a render of this key must answer to be stored: the 404 page's own, else 200. */
export function storedStatusOf(key: string): number {
  return key === NOT_FOUND_KEY ? 404 : 200;
}
