import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/client.ts';
import type SQLite from 'better-sqlite3';
import type { ChangeListener } from './page-store/changes.ts';

/**
 * The process-wide services. The HTTP server (plain Node) and Astro's bundle each load their own
 * copy of this module, so the one instance lives on globalThis under a registry symbol.
 */
export interface AppContext {
  config: Config;
  db: Db;
  sqlite: SQLite.Database;
  /** Called after every committed change with the tags it touched (see rebuild/changes.ts). */
  changeListeners: ChangeListener[];
}

const KEY = Symbol.for('study-site.app-context');
type Holder = { [KEY]?: AppContext };

export function setAppContext(context: AppContext): void {
  (globalThis as Holder)[KEY] = context;
}

/** The running server's context; under `astro dev` it is opened on first use. */
export function getAppContext(): AppContext {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const config = loadConfig();
    const { db, sqlite } = openDatabase(config.databasePath);
    holder[KEY] = { config, db, sqlite, changeListeners: [] };
  }
  return holder[KEY]!;
}
