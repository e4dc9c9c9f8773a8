import fs from 'node:fs';
import path from 'node:path';

/**
 * A damaged page store file is a cache fault, never a reason to stop the site: it is set aside
 * (renamed, kept for a look) and the store starts empty. A process that finds the damage while
 * other processes have the file open cannot rename it under them; it leaves this mark instead, and
 * the next start sets the file aside before anything opens it.
 */
const MARK_NAME = 'store-damaged';

/** SQLite's answers for a file that is not (or no longer) a valid database. */
export function isDamagedFile(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/** What a check or a read throws when the file's content is wrong although SQLite read it. */
export function damageFound(what: string): Error {
  return Object.assign(new Error(what), { code: 'SQLITE_CORRUPT' });
}

/** Renames the damaged file (and its -wal and -shm, which belong to it) to `<name>.corrupt-<time>`; returns that name. */
export function setAsideDamaged(file: string): string {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  if (fs.existsSync(file)) fs.renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  clearDamageMark(path.dirname(file));
  return aside;
}

/** Leaves the mark: the next start sets the file aside. Never throws (it runs on a failing path). */
export function markStoreDamaged(dir: string, reason: string): void {
  try {
    fs.writeFileSync(path.join(dir, MARK_NAME), `${new Date().toISOString()} ${reason}\n`);
  } catch {
    // A full or read-only disk: the file stays unused by this process anyway.
  }
}

/** Why an earlier process marked the file damaged, or null when none did. */
export function readDamageMark(dir: string): string | null {
  try {
    return fs.readFileSync(path.join(dir, MARK_NAME), 'utf8').trim() || 'marked damaged';
  } catch {
    return null;
  }
}

/** The mark goes with the files it is about (the store dropped after a crash). */
export function clearDamageMark(dir: string): void {
  fs.rmSync(path.join(dir, MARK_NAME), { force: true });
}
