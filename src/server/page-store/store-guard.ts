import { isDamagedFile } from './store-damage.ts';

/**
 * The page store is a cache: a failure of its file (a full disk, an I/O error) must never reach a
 * caller, least of all a write that already committed. Each failure kind is logged once with the
 * file's path (not per request), and once more when that kind works again.
 *
 * A damaged file (SQLite says so, or a body read back does not match its ETag) is different: what
 * it answers can no longer be trusted, so from then on no operation reaches it and the owner is
 * told once (`onDamaged`): it serves without the store and has the file set aside at next start.
 */
export class StoreGuard {
  private readonly reported = new Set<string>();
  private readonly file: string;
  private readonly log: (line: string) => void;
  /** Test seam: every write fails as on a full disk. */
  private readonly failWrites: boolean;
  private readonly onDamaged: (reason: string) => void;
  private damaged = false;

  constructor(file: string, log: (line: string) => void, failWrites: boolean, onDamaged: (reason: string) => void = () => {}) {
    this.file = file;
    this.log = log;
    this.failWrites = failWrites;
    this.onDamaged = onDamaged;
  }

  /** True once the file was found damaged: nothing reaches it any more. */
  get broken(): boolean {
    return this.damaged;
  }

  /** Never use the file again (found damaged at open, or by another process). */
  markBroken(): void {
    this.damaged = true;
  }

  /** Runs a file operation: its result (null for none), or undefined when it failed or the file is damaged. */
  run<T>(kind: 'read' | 'write', operation: () => T): T | null | undefined {
    if (this.damaged) return undefined;
    try {
      if (kind === 'write' && this.failWrites)
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      const result = operation();
      if (this.reported.delete(kind)) this.log(`Page store ${this.file}: ${kind}s work again.`);
      return result ?? null;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (isDamagedFile(error)) {
        this.damaged = true;
        this.onDamaged(message);
        return undefined;
      }
      if (!this.reported.has(kind)) {
        this.reported.add(kind);
        this.log(
          `Page store ${this.file}: a ${kind} failed (${message}); pages are rendered and served without being stored until it works again.`,
        );
      }
      return undefined;
    }
  }
}
