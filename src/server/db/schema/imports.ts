// What an import brought: the items' keys and the old addresses.
/** What an item of an imported site became here (migration 0012): the key of idempotent imports. */
export interface ImportSourcesTable {
  /** The site it came from, e.g. `wxr:https://example.org`. */
  source: string;
  /** `post`, `comment`, `upload`. */
  kind: string;
  /** The item's id in that site (a WordPress guid, a Ghost id, a file's path). */
  source_id: string;
  target_id: number | null;
  /** An upload's address here. */
  target_url: string | null;
  /** Of what was imported: the same hash means nothing to update. */
  hash: string;
  imported_at: string;
}

/** An old site's address that answers with a 301 to an article (migration 0012). */
export interface RedirectsTable {
  /** Path and query as the old site spelled it, normalised (redirects.ts `normaliseOldPath`). */
  path: string;
  blog_id: number;
  created_at: string;
}
