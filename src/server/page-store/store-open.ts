import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { dropStoredPages, STORE_FILE_NAME, storeFileOutdated } from './store-schema.ts';
import { damageFound, isDamagedFile, markStoreDamaged, readDamageMark, setAsideDamaged } from './store-damage.ts';
import { prepareStoreFile, type StoreFile } from './store-file.ts';
import { StoreGuard } from './store-guard.ts';
import type { PageStoreOptions } from './store-options.ts';

// Opening the store's file: checked at start, a damaged one set aside or left for the next start.

/**
 * Up to this size the start-up check reads the whole file (`PRAGMA quick_check`: 0.7-0.9 s for a
 * 300 MB store of 6,000 pages on a busy two-core machine, growing with the file). A larger store
 * has its small tables checked whole (versions, tag index, meta: a few ms) and its pages' rows
 * walked (counting their bytes), not the overflow pages holding the bodies: a body is checked
 * against its ETag when read.
 */
const FULL_CHECK_MAX_BYTES = 256 * 1024 * 1024;

export interface OpenStoreOptions {
  log?: (line: string) => void;
  /** Check the file before trusting it (at start; sized to the file, FULL_CHECK_MAX_BYTES). */
  check?: boolean;
  /** A damaged file may be renamed aside: never while other processes have it open. */
  setAside?: boolean;
  /** Pages of another build are dropped at open (their assets no longer exist). */
  buildId?: string;
}

/** The opened file and its pages' bytes; or why it is unusable (damaged, and not set aside). */
export type OpenedStoreFile = { file: StoreFile; bytes: number } | { damaged: string };

/**
 * Opens (or creates) the store file, runs its first reads (and the check, when asked) and reports
 * damage instead of throwing it: a damaged file is set aside, logged with both paths, and the store
 * starts empty; when it may not be set aside (others have it open), or an earlier process marked
 * it damaged, the caller gets `{ damaged }` and serves without the store. Any other failure names
 * the file.
 */
export function openPageStoreFile(dir: string, options: OpenStoreOptions = {}): OpenedStoreFile {
  const log = options.log ?? console.error;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, STORE_FILE_NAME);
  const setAside = (reason: string) => {
    const aside = setAsideDamaged(file);
    log(
      `Page store: ${file} is damaged (${reason}); moved it to ${aside} and started with an empty store (pages are rendered again).`,
    );
  };
  const marked = readDamageMark(dir);
  if (marked !== null) {
    if (!options.setAside) return { damaged: marked };
    setAside(marked);
  }
  // A file of an older layout is a cache of an older version: replaced whole when no other
  // process has it open (the new file takes the current page size), else rebuilt in place.
  if (options.setAside && storeFileOutdated(file)) {
    dropStoredPages(dir, 0);
    log(`Page store: ${file} was made by an older version; started it afresh (pages are rendered again).`);
  }
  try {
    return openAndCheck(file, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!isDamagedFile(error)) throw new Error(`Page store ${file} could not be opened: ${message}`, { cause: error });
    if (!options.setAside) {
      markStoreDamaged(dir, message);
      log(`Page store: ${file} is damaged (${message}); pages are rendered without it until the next start sets it aside.`);
      return { damaged: message };
    }
    setAside(message);
    return openAndCheck(file, { ...options, check: false });
  }
}

/** Opens (or creates) the store file; a damaged one is set aside and the store starts empty. */
export function openStoreFile(dir: string, log: (line: string) => void = console.error): StoreFile {
  const opened = openPageStoreFile(dir, { log, setAside: true });
  if ('damaged' in opened) throw damageFound(opened.damaged);
  return opened.file;
}

/**
 * The file a PageStore runs on, behind the guard every operation on it passes. A damaged file
 * found at open, or later by the guard, is marked for the next start (`forget`: drop what came
 * from it); the store then serves without it.
 */
export function openGuardedStoreFile(
  options: PageStoreOptions,
  forget: () => void,
): { file: StoreFile; guard: StoreGuard; bytes: number } {
  const file = path.join(options.dir, STORE_FILE_NAME);
  const log = options.log ?? console.error;
  const guard = new StoreGuard(file, log, options.failWrites ?? false, (reason) => {
    forget();
    markStoreDamaged(options.dir, reason);
    log(`Page store: ${file} is damaged (${reason}); pages are rendered without it until the next start sets it aside.`);
  });
  const opened = openPageStoreFile(options.dir, {
    log,
    check: options.check ?? false,
    setAside: options.setAside ?? true,
    buildId: options.buildId,
  });
  if (!('damaged' in opened)) return { ...opened, guard };
  // Never read: the guard lets nothing through, and pages are rendered for every reader.
  guard.markBroken();
  return { file: openDetachedStoreFile(), guard, bytes: 0 };
}

/** An empty store in memory, for a store whose file is damaged: its guard never lets a call reach it. */
export function openDetachedStoreFile(): StoreFile {
  return prepareStoreFile(new SQLite(':memory:'));
}

function openAndCheck(file: string, options: OpenStoreOptions): { file: StoreFile; bytes: number } {
  const db = new SQLite(file);
  try {
    const store = prepareStoreFile(db);
    if (options.check) checkStoreFileAtStart(db, file);
    if (options.buildId !== undefined) store.keepOnlyBuild(options.buildId);
    return { file: store, bytes: store.countBytes() };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Throws when SQLite finds the file's structure damaged. A large file has its small tables checked
 * whole and its pages' rows walked (counting their bytes, next); their bodies are checked as read.
 */
function checkStoreFileAtStart(db: SQLite.Database, file: string): void {
  const size = fs.statSync(file).size + (fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  const checks =
    size <= FULL_CHECK_MAX_BYTES
      ? ['quick_check']
      : ["quick_check('meta')", "quick_check('tag_versions')", "quick_check('page_tags')"];
  for (const check of checks) {
    const found = db.pragma(check, { simple: true });
    // The first findings are enough for the log line (SQLite lists up to a hundred).
    if (found !== 'ok') throw damageFound(`${check}: ${String(found).split('\n').slice(0, 3).join('; ')}`);
  }
}

/** For GET /healthz: the store's file opens read-only and answers a read; throws why not. */
export function checkStoreFile(dir: string): void {
  const db = new SQLite(path.join(dir, STORE_FILE_NAME), { readonly: true, fileMustExist: true, timeout: 1000 });
  try {
    db.prepare('select count(*) from (select 1 from pages limit 1)').get();
  } finally {
    db.close();
  }
}
