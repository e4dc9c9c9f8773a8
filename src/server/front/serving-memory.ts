// How a serving process is started so that two of them, with their render and search threads,
// stay inside one small server's memory under load. Measured with wrk on random pages of a
// 10,000-article site (docs/benchmarks.md, "V8's heap growth held at 40%"):
// - V8 lets an old generation grow by a factor it picks from its collection speed, up to 4x
//   what survived the last full collection. A serving thread's garbage (a request's strings, a
//   page let go by the page memory) then waits for a collection long after it is dead: each
//   serving process went from about 150 MB idle to 300 MB. At 40% growth it stays near 220 MB,
//   for 7% fewer pages a second in brotli and 15% fewer uncompressed (an uncompressed answer
//   decodes the stored brotli: more garbage, collected more often). At 20% it cost 11-17%.
// - A small young generation (V8's default grows to 48 MiB per process) for the same reason.
// - Not glibc's arenas: two (MALLOC_ARENA_MAX=2) took about 18 MB off the two processes, but on a
//   machine with no idle core the threads then queued for the arenas' locks, and the first searches
//   took over 60 s instead of under 1 s.
// Each is a default: a flag the operator set is left as it is. A single serving
// process (WEB_PROCESSES=1) is not started by the primary: it sets the heap growth itself, at
// start (boundHeapGrowth); V8 reads that flag at each collection.
import v8 from 'node:v8';

type Flag = readonly [name: string, value: string];
const HEAP_GROWTH: Flag = ['--heap-growing-percent', '40'];
/** Flags for V8 in each serving process (and its worker threads: V8's flags are per process). */
const FLAGS: readonly Flag[] = [['--max-semi-space-size', '2'], HEAP_GROWTH];

/** Whether `given` names the V8 flag `name` (V8 takes `_` for `-`; a value after `=` or as the next argument). */
function names(given: readonly string[], name: string): boolean {
  return given.some((flag) => {
    const dashed = flag.replaceAll('_', '-');
    return dashed === name || dashed.startsWith(`${name}=`);
  });
}

/** V8 flags for the serving processes, after the primary's own; one the primary was given wins. */
export function servingV8Flags(given: readonly string[]): string[] {
  return [...given, ...FLAGS.filter(([name]) => !names(given, name)).map(([name, value]) => `${name}=${value}`)];
}

/** Sets V8's heap growth in this process unless its command line named it; returns the flag set, if any. */
export function boundHeapGrowth(
  given: readonly string[],
  setFlags: (flags: string) => void = (flags) => v8.setFlagsFromString(flags),
): string | null {
  const [name, value] = HEAP_GROWTH;
  if (names(given, name)) return null;
  setFlags(`${name}=${value}`);
  return `${name}=${value}`;
}
