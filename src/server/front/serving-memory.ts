// How a serving process is started so that two of them, with their render and search threads,
// stay inside one small server's memory under load. Measured with wrk on random pages of a
// 10,000-article site (docs/benchmarks.md, "V8's heap growth held at 40%"):
// - V8 lets an old generation grow by a factor it picks from its collection speed, up to 4x
//   what survived the last full collection. A serving thread's garbage (a request's strings, a
//   page let go by the page memory) then waits for a collection long after it is dead: each
//   serving process went from about 150 MB idle to 300 MB. At 40% growth it stays near 225 MB,
//   with throughput within the runs' noise (20% cost about 11% of the readers).
// - A small young generation (V8's default grows to 48 MiB per process) for the same reason.
// - glibc gives each thread that mallocs its own arena, up to 8 a core; the serving thread, the
//   render worker, the search worker and libuv's pool each keep freed pages in their own. Two
//   arenas took about 18 MB off the two processes at no measurable cost.
// Each is a default: a flag or variable the operator set is left as it is.

/** Flags for V8 in each serving process (and its worker threads: V8's flags are per process). */
const FLAGS: ReadonlyArray<readonly [name: string, value: string]> = [
  ['--max-semi-space-size', '2'],
  ['--heap-growing-percent', '40'],
];

/** V8 flags for the serving processes, after the primary's own; one the primary was given wins. */
export function servingV8Flags(given: readonly string[]): string[] {
  // V8 takes `--max_semi_space_size` for `--max-semi-space-size`, and a value after `=` or as the next argument.
  const named = (flag: string, name: string) => {
    const dashed = flag.replaceAll('_', '-');
    return dashed === name || dashed.startsWith(`${name}=`);
  };
  return [
    ...given,
    ...FLAGS.filter(([name]) => !given.some((flag) => named(flag, name))).map(([name, value]) => `${name}=${value}`),
  ];
}

/** The environment a serving process adds to the primary's: glibc's arena count, unless set. */
export function servingMallocEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return env.MALLOC_ARENA_MAX ? {} : { MALLOC_ARENA_MAX: '2' };
}
