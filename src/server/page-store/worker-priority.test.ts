import { describe, expect, it } from 'vitest';
import { HURRY_NICE, workerPriority } from './worker-priority.ts';

/** A thread's nice value as Linux keeps it: raising is always allowed, lowering only when privileged. */
function fakeThread(privileged: boolean, lowest = -20) {
  const thread = { nice: 0, calls: [] as number[] };
  const setPriority = (value: number) => {
    thread.calls.push(value);
    if (value < thread.nice && !privileged) throw new Error('EACCES');
    // RLIMIT_NICE: lowering is allowed down to a floor.
    if (value < lowest) throw new Error('EACCES');
    thread.nice = value;
  };
  return { thread, setPriority };
}

describe('workerPriority', () => {
  it('renders what someone waits for above the serving threads and the background at the worker nice value, when the thread may', async () => {
    const { thread, setPriority } = fakeThread(true);
    const priority = workerPriority(10, setPriority);
    expect(priority.canHurry).toBe(true);
    expect(priority.hurryNice).toBe(HURRY_NICE);
    expect(thread.nice).toBe(10);

    let niceDuringRender: number | undefined;
    const answer = await priority.run('now', async () => {
      niceDuringRender = thread.nice;
      return 'page';
    });
    expect(answer).toBe('page');
    expect(niceDuringRender).toBeLessThan(0);
    expect(thread.nice).toBe(10);

    await priority.run('background', async () => {
      niceDuringRender = thread.nice;
    });
    expect(niceDuringRender).toBe(10);
  });

  it('renders what someone waits for at nice 0 where the thread may lower its value to 0 only', async () => {
    const { thread, setPriority } = fakeThread(true, 0);
    const priority = workerPriority(10, setPriority);
    expect(priority.hurryNice).toBe(0);
    expect(thread.nice).toBe(10);
    let niceDuringRender: number | undefined;
    await priority.run('now', async () => {
      niceDuringRender = thread.nice;
    });
    expect(niceDuringRender).toBe(0);
    expect(thread.nice).toBe(10);
  });

  it('goes back to the worker nice value when a render fails', async () => {
    const { thread, setPriority } = fakeThread(true);
    const priority = workerPriority(10, setPriority);
    await expect(priority.run('now', () => Promise.reject(new Error('render blew up')))).rejects.toThrow('render blew up');
    expect(thread.nice).toBe(10);
  });

  it('keeps every render at the worker nice value where lowering it is not allowed', async () => {
    const { thread, setPriority } = fakeThread(false);
    const priority = workerPriority(10, setPriority);
    expect(priority.canHurry).toBe(false);
    let niceDuringRender: number | undefined;
    await priority.run('now', async () => {
      niceDuringRender = thread.nice;
    });
    expect(niceDuringRender).toBe(10);
  });

  it('leaves the thread alone when the worker is not niced', async () => {
    const { thread, setPriority } = fakeThread(true);
    const priority = workerPriority(0, setPriority);
    await priority.run('now', async () => undefined);
    expect(priority.canHurry).toBe(false);
    expect(thread.calls).toEqual([]);
  });
});
