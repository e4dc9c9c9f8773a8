/**
 * How many items each public page shows (docs/product.md#limits-and-constants). The site map, the
 * reader's pages and the refreshers all count with these, so they live below all of them.
 */
export const HOME_PAGE_SIZE = 6;
export const LIST_PAGE_SIZE = 1;
export const TOP_VIEWED_LIMIT = 17;
export const RECENT_LIMIT = 10;
export const NAV_MAIN_CATEGORIES = 2;
export const FOOTER_QUICK_CATEGORIES = 4;
export const FOOTER_IMPORTANT_CATEGORIES = 5;
/**
 * Rows of a Downloads page. One page of every PDF was 4.8 MB at 100,000 articles; 50 rows keep a
 * page near the size of an article page.
 */
export const DOWNLOAD_PAGE_SIZE = 50;
/** Articles in the RSS feed. */
export const FEED_LIMIT = 20;
