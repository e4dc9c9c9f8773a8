import type SQLite from 'better-sqlite3';
import { Kysely, type KyselyConfig } from 'kysely';
import type { Database } from './schema.ts';

// The connection's type, spelled out: `client.ts` imports this file, so naming its `Db` would be a circle.
type Db = Kysely<Database>;

/**
 * Reads that every page of a render repeats identically (the categories, the ordered ids of a
 * public list, the home page's side lists), kept per connection for as long as the data they came
 * from cannot have changed. A full pre-render renders thousands of pages from one unchanged
 * database; reading these once instead of per page is a large share of a list page's cost, and
 * the list's ids make page N of a list one indexed lookup instead of an OFFSET walk.
 *
 * A kept value is exact, never stale:
 * - another connection (another process, a render worker, the admin script) committed: SQLite's
 *   `data_version` moved;
 * - this connection wrote: `total_changes()` moved;
 * - a scheduled article became due (readers see it from its `publish_at`, before any write): the
 *   earliest future `publish_at` is kept with the values, and passing it drops them;
 * - inside a transaction nothing is kept or reused (what it wrote may still be rolled back);
 * - inside a render worker's job (`readAtJobStart`) this is looked at once, as the job begins.
 * Only connections opened by `openDatabase` (a `CachingKysely`, which carries its cache) are
 * cached; any other Db (a transaction's, one with a plugin) reads directly.
 */
interface Connection {
  sqlite: SQLite.Database;
  /** Prepared at the first cached read (the connection may be opened before its tables exist). */
  statements: { state: SQLite.Statement; nextDue: SQLite.Statement } | null;
  kept: Kept | null;
  /** Inside `readAtJobStart`: the state was looked at when the job began; reads do not look again. */
  fixed: boolean;
}

interface Kept {
  dataVersion: number;
  changes: number;
  /** ISO time at which a scheduled article becomes public (null: none scheduled). */
  dueAt: string | null;
  values: Map<string, Promise<unknown>>;
}

/**
 * A connection as openDatabase makes it: the cache travels with it, so the server's own modules
 * and Astro's bundle (each with a copy of this file) share it through the one connection.
 * kysely makes its transactions and plugin copies as plain `Kysely`s, which carry none.
 */
export class CachingKysely extends Kysely<Database> {
  readonly readCache: Connection;
  constructor(config: KyselyConfig, sqlite: SQLite.Database) {
    super(config);
    this.readCache = { sqlite, statements: null, kept: null, fixed: false };
  }
}

function currentValues(connection: Connection): Map<string, Promise<unknown>> {
  if (connection.fixed && connection.kept) return connection.kept.values;
  const statements = (connection.statements ??= {
    // `data_version` and `total_changes()` in one statement: a few µs.
    state: connection.sqlite.prepare(
      'select (select data_version from pragma_data_version) as dataVersion, total_changes() as changes',
    ),
    // The earliest publish_at of a scheduled article still to come.
    nextDue: connection.sqlite.prepare("select min(publish_at) from blogs where status = 'scheduled' and publish_at > ?").pluck(),
  });
  const { dataVersion, changes } = statements.state.get() as { dataVersion: number; changes: number };
  const now = new Date().toISOString();
  const kept = connection.kept;
  if (kept && kept.dataVersion === dataVersion && kept.changes === changes && (kept.dueAt === null || now < kept.dueAt)) {
    return kept.values;
  }
  // Read before the values: an article due in between makes the next call read them again.
  const dueAt = (statements.nextDue.get(now) as string | null) ?? null;
  connection.kept = { dataVersion, changes, dueAt, values: new Map() };
  return connection.kept.values;
}

/**
 * `read()`'s value, kept under `key` while the database cannot have changed (see above). The value
 * is shared by every caller: never modify it.
 */
export function cachedRead<T>(db: Db, key: string, read: () => Promise<T>): Promise<T> {
  // By its field, not `instanceof`: the connection may come from the other copy's class.
  const connection = (db as Partial<CachingKysely>).readCache;
  if (!connection || connection.sqlite.inTransaction) return read();
  const values = currentValues(connection);
  let value = values.get(key) as Promise<T> | undefined;
  if (!value) {
    value = read();
    values.set(key, value);
    // A failed read is not kept.
    value.catch(() => {
      if (values.get(key) === value) values.delete(key);
    });
  }
  return value;
}

/**
 * Runs one job of a thread that runs its jobs one at a time (a render worker) with the database's
 * state looked at once, as the job begins, instead of at every cached read: that look (a query of
 * `data_version` and the clock against the next scheduled article, 2-5 µs) was made about a dozen
 * times a page.
 *
 * What a job reads is then as new as the database when it began, or newer. That is what a page's
 * freshness needs: the page store took the render's start before sending the job, and any change
 * committed after that bumps a tag the store checks the page against, so a page that may have
 * missed it is not kept. A thread that serves requests (whose reads interleave) never uses this.
 */
export async function readAtJobStart<T>(db: Db, job: () => Promise<T>): Promise<T> {
  const connection = (db as Partial<CachingKysely>).readCache;
  if (!connection) return job();
  connection.fixed = false;
  if (!connection.sqlite.inTransaction) currentValues(connection);
  connection.fixed = true;
  try {
    return await job();
  } finally {
    connection.fixed = false;
  }
}
