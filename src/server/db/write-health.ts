/**
 * The files of this process's database writes that last failed for want of storage (a full disk,
 * a used-up quota) or an I/O error, kept until a write to that file works again. /healthz reports
 * them (front/healthz.ts); the failing request itself answers 507 (api/respond.ts). With several
 * serving processes each tells its siblings when a trouble starts or ends (`shareWriteTroubles`),
 * so every process's /healthz says so, not only the one whose write failed.
 */
export type WriteTrouble = 'disk full' | 'write failed';

const DISK_FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** What a failed write says about the storage under it; null for a refusal of the data (a constraint) or a busy lock. */
export function writeTroubleOf(error: unknown): WriteTrouble | null {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (DISK_FULL.has(code)) return 'disk full';
  if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY')) return 'write failed';
  return null;
}

const troubles = new Map<string, WriteTrouble>();
let tellSiblings: ((file: string, trouble: WriteTrouble | null) => void) | null = null;

/** Hands each trouble that starts or ends here to `tell` (the sibling processes: front/site.ts). */
export function shareWriteTroubles(tell: ((file: string, trouble: WriteTrouble | null) => void) | null): void {
  tellSiblings = tell;
}

/**
 * A sibling's trouble (null: over). Kept like one of this process's own: its health probe sees it
 * end, as it does for its own. Not told on again.
 */
export function noteSiblingWriteTrouble(file: string, trouble: WriteTrouble | null): void {
  if (trouble === null) troubles.delete(file);
  else troubles.set(file, trouble);
}

/** Notes a failed write to `file` (logged once per trouble, with SQLite's own words, for the operator). */
export function noteWriteFailed(file: string, error: unknown, log: (line: string) => void = console.error): void {
  const trouble = writeTroubleOf(error);
  if (!trouble || troubles.get(file) === trouble) return;
  troubles.set(file, trouble);
  tellSiblings?.(file, trouble);
  const message = error instanceof Error ? error.message : String(error);
  log(
    `Database ${file}: a write failed (${message}); writes answer 507 or 500 and /healthz reports "${trouble}" until one works again.`,
  );
}

/** Notes a write to `file` that worked: a trouble noted before is over. */
export function noteWriteWorked(file: string, log: (line: string) => void = console.error): void {
  if (troubles.size === 0 || !troubles.delete(file)) return;
  tellSiblings?.(file, null);
  log(`Database ${file}: writes work again.`);
}

/** The files whose last write failed, and how. */
export function writeTroubles(): ReadonlyMap<string, WriteTrouble> {
  return troubles;
}
