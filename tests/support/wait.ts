/**
 * How long a wait may last before it counts as hung. Generous on purpose: the suite must pass on
 * a machine busy with other work (2 cores, many times that many busy processes), where a server's
 * start and first pre-render take minutes. Never a budget: a passing run does not come near it.
 */
export const HANG_GUARD_MS = 600_000;

/**
 * Polls `probe` until `done` holds. A hang guard, not a budget: the deadline only turns a page
 * that never becomes right into a readable failure instead of a stuck run.
 */
export async function until<T>(
  probe: () => Promise<T> | T,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = HANG_GUARD_MS / 2,
  /** Between probes; longer where each probe costs the server something worth sparing. */
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** `until` for a plain condition: waits (a hang guard, no budget) until `condition()` holds. */
export async function untilTrue(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = HANG_GUARD_MS / 2,
): Promise<void> {
  await until(
    async () => condition(),
    (held) => held,
    what,
    timeoutMs,
  );
}
