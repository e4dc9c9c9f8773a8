import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { keepTickObjectShape } from './tick-shape.ts';

describe('keepTickObjectShape', () => {
  it("keeps Node's own tick objects and leaves no hook behind", () => {
    const first = keepTickObjectShape();
    expect(first).toBeGreaterThanOrEqual(2);
    // A second call adds its two: the first call's hook no longer sees ticks.
    expect(keepTickObjectShape()).toBe(first + 2);
  });

  it('relies on what Node names its tick objects and what they hold: a change here voids the workaround', () => {
    // What the workaround holds is what Node's own code creates: a tick object seen by an
    // independent hook has the fields the kept ones have.
    const seen: Array<Record<string, unknown>> = [];
    const hook = createHook({
      init(_id, type, _trigger, resource) {
        if (type === 'TickObject') seen.push(resource as Record<string, unknown>);
      },
    }).enable();
    try {
      process.nextTick(() => {}, 1);
    } finally {
      hook.disable();
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toHaveProperty('callback');
    expect(seen[0]).toHaveProperty('args');
  });
});
