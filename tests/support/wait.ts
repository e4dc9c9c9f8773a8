/**
 * Polls `probe` until `done` holds. A hang guard, not a budget: the deadline only turns a page
 * that never becomes right into a readable failure instead of a stuck run.
 */
export async function until<T>(
  probe: () => Promise<T> | T,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 120_000,
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
export async function untilTrue(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  await until(
    async () => condition(),
    (held) => held,
    what,
    timeoutMs,
  );
}
