import { createHook } from 'node:async_hooks';

/** The tick objects kept alive for the life of the process (see keepTickObjectShape). */
const kept: object[] = [];

/**
 * Keeps Node's own `process.nextTick` objects alive for the life of the process (two: one from
 * each form of the call), so V8 never forgets their hidden class.
 *
 * Why: on Node 22 (V8 12.4), a full garbage collection while no tick object is alive, after a
 * few requests but before the HTTP path is optimized (measured: the pre-render, 45 s of idling
 * after start, one forced collection), leaves every later `process.nextTick` creating its
 * object through V8's runtime, migrating it from a deprecated hidden class each time. Node's
 * streams call it several times per request, so a stored page costs 4-5 µs more of the serving
 * thread for the rest of the process's life: 48-52k against 58-62k hot-page requests a second
 * on 2 cores (docs/benchmarks.md). A ten-line `node:http` server does the same, and holding one
 * tick object, whose hidden class then outlives those collections, is enough to avoid it.
 *
 * The only way to reach a tick object is an async hook's `init`; the hook is on for two
 * `nextTick` calls here and off again before this returns. Returns how many are kept (0 where
 * this Node's ticks are not named `TickObject`: nothing is lost but the workaround).
 */
export function keepTickObjectShape(): number {
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept.push(resource);
    },
  });
  hook.enable();
  try {
    // With and without arguments: each tick object carries both fields either way.
    process.nextTick(noop);
    process.nextTick(noop, 0);
  } finally {
    hook.disable();
  }
  return kept.length;
}

function noop(): void {}
