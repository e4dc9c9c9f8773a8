// Gives memory back once a burst of work is over. glibc keeps the pages freed by a pre-render or
// by readers of random pages (many page-sized buffers, freed out of order), and Node has no way to
// hand them back: a serving process stayed 60-70 MB larger than it needed after a pre-render. The
// native malloc_trim (native/malloc-trim.c, built by `npm run build` where a C compiler exists)
// returns them. It is called only when the process has gone quiet: under load it took up to
// 23 ms of the serving thread and what it freed was taken again at once.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

/** How often the process's CPU time is looked at. */
export const TRIM_CHECK_MS = 5_000;
/** Below this share of one core over a check, the process counts as quiet. */
export const QUIET_CPU_SHARE = 0.05;

export type Trim = () => boolean;

/** malloc_trim from <dist>/native/malloc-trim.node, or null when the build could not make it. */
export function loadMallocTrim(distDir: string): Trim | null {
  const file = path.join(distDir, 'native', 'malloc-trim.node');
  if (!fs.existsSync(file)) return null;
  try {
    const native = createRequire(import.meta.url)(file) as { trim?: unknown };
    return typeof native.trim === 'function' ? (native.trim as Trim) : null;
  } catch {
    // Built for another system (a copied dist/): run without it.
    return null;
  }
}

export interface QuietTrimOptions {
  trim: Trim;
  /** The process's CPU time so far, in microseconds (every thread: renders and searches count). */
  cpuMicros?: () => number;
  checkMs?: number;
}

/**
 * Every `checkMs`, trims once when the last interval was quiet and some busy interval came since
 * the last trim (the start counts as busy): one trim per burst, never while it lasts.
 * Returns a function that stops it.
 */
export function startQuietTrim(options: QuietTrimOptions): () => void {
  const checkMs = options.checkMs ?? TRIM_CHECK_MS;
  const cpuMicros =
    options.cpuMicros ??
    (() => {
      const used = process.cpuUsage();
      return used.user + used.system;
    });
  let lastCpu = cpuMicros();
  let busySinceTrim = true;
  const timer = setInterval(() => {
    const cpu = cpuMicros();
    const share = (cpu - lastCpu) / 1000 / checkMs;
    lastCpu = cpu;
    if (share >= QUIET_CPU_SHARE) {
      busySinceTrim = true;
      return;
    }
    if (!busySinceTrim) return;
    busySinceTrim = false;
    options.trim();
  }, checkMs);
  timer.unref();
  return () => clearInterval(timer);
}
