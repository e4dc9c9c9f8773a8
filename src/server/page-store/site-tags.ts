/**
 * The typed cache tags, kept in `src/shared/site-map/tags.ts` (below every server folder, so the
 * app context and the services can name them without importing the page store). Re-exported here
 * for the page store's own modules and the services that already import them from here.
 */
export * from '../../shared/site-map/tags.ts';
