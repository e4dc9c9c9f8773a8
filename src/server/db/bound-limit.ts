/**
 * kysely binds a query's LIMIT as a parameter (`limit ?`). SQLite (3.54 here) reads a bare bound
 * LIMIT's value while planning, so rebinding it, which better-sqlite3 does on every run, expires
 * the statement and SQLite compiles it again at its next step: every read with a LIMIT was
 * prepared anew despite the statement cache. Measured on the 10,000-article site: an article's
 * older/newer neighbour 18-20 µs a run against 4.5-6 as `limit 1`; a lookup by id 8.4 against
 * 4.3 µs. Wrapped in an expression, the value is only read when the statement runs, with the same
 * result for every integer (a negative one still means no limit).
 */
// A quoted string or identifier is matched whole (and left as it is), so a "limit ?" inside one is never taken.
const QUOTED_OR_BARE_LIMIT = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\blimit \?(?!\d)/gi;

/** `sql` with every bare `limit ?` outside quotes written `limit cast(? as integer)`. */
export function limitAsExpression(sql: string): string {
  return sql.replace(QUOTED_OR_BARE_LIMIT, (found) =>
    /^['"`]/.test(found) ? found : `${found.slice(0, 'limit'.length)} cast(? as integer)`,
  );
}
