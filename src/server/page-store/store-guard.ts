/**
 * The page store is a cache: a failure of its file (a full disk, an I/O error) must never reach a
 * caller, least of all a write that already committed. Each failure kind is logged once with the
 * file's path (not per request), and once more when that kind works again.
 */
export class StoreGuard {
  private readonly reported = new Set<string>();
  private readonly file: string;
  private readonly log: (line: string) => void;
  /** Test seam: every write fails as on a full disk. */
  private readonly failWrites: boolean;

  constructor(file: string, log: (line: string) => void, failWrites: boolean) {
    this.file = file;
    this.log = log;
    this.failWrites = failWrites;
  }

  /** Runs a file operation: its result (null for none), or undefined when it failed. */
  run<T>(kind: 'read' | 'write', operation: () => T): T | null | undefined {
    try {
      if (kind === 'write' && this.failWrites)
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      const result = operation();
      if (this.reported.delete(kind)) this.log(`Page store ${this.file}: ${kind}s work again.`);
      return result ?? null;
    } catch (error) {
      if (!this.reported.has(kind)) {
        this.reported.add(kind);
        const message = error instanceof Error ? error.message : String(error);
        this.log(
          `Page store ${this.file}: a ${kind} failed (${message}); pages are rendered and served without being stored until it works again.`,
        );
      }
      return undefined;
    }
  }
}
