import { describe, expect, it } from 'vitest';
import { createJobRunner } from './worker-jobs.ts';
import type { RenderPriority } from './render-pool.ts';

interface Job {
  key: string;
  priority: RenderPriority;
}

describe('createJobRunner', () => {
  it('runs one job at a time, the waiting reader before the background handed over earlier', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let active = 0;
    let most = 0;
    const done = new Promise<void>((finish) => {
      const submit = createJobRunner<Job>(async (job) => {
        started.push(job.key);
        most = Math.max(most, ++active);
        if (job.key === 'first') await gate;
        await Promise.resolve();
        active--;
        if (started.length === 4) finish();
      });
      submit({ key: 'first', priority: 'background' });
      submit({ key: 'background 1', priority: 'background' });
      submit({ key: 'background 2', priority: 'background' });
      submit({ key: 'reader', priority: 'now' });
    });
    release();
    await done;
    expect(started).toEqual(['first', 'reader', 'background 1', 'background 2']);
    expect(most).toBe(1);
  });

  it('takes a job that arrives as a message during a render before the background already queued', async () => {
    const ran: string[] = [];
    await new Promise<void>((finish) => {
      const submit = createJobRunner<Job>(async (job) => {
        ran.push(job.key);
        // The reader's job arrives the way a worker receives one: a message, on a later turn.
        if (job.key === 'first') setImmediate(() => submit({ key: 'reader', priority: 'now' }));
        await Promise.resolve();
        if (ran.length === 4) finish();
      });
      submit({ key: 'first', priority: 'background' });
      submit({ key: 'background 1', priority: 'background' });
      submit({ key: 'background 2', priority: 'background' });
    });
    expect(ran).toEqual(['first', 'reader', 'background 1', 'background 2']);
  });

  it('takes the lanes a caller names in their order, each in arrival order', async () => {
    const ran: string[] = [];
    await new Promise<void>((finish) => {
      const lanes: Record<string, number> = { save: 0, search: 1, refresh: 2 };
      const submit = createJobRunner<Job>(
        async (job) => {
          ran.push(job.key);
          await Promise.resolve();
          if (ran.length === 6) finish();
        },
        (job) => lanes[job.key.split(' ')[0]!]!,
      );
      submit({ key: 'refresh 1', priority: 'background' });
      submit({ key: 'search 1', priority: 'now' });
      submit({ key: 'refresh 2', priority: 'background' });
      submit({ key: 'save 1', priority: 'now' });
      submit({ key: 'search 2', priority: 'now' });
      submit({ key: 'save 2', priority: 'now' });
    });
    // The first job starts at once; the rest wait in their lanes.
    expect(ran).toEqual(['refresh 1', 'save 1', 'save 2', 'search 1', 'search 2', 'refresh 2']);
  });

  it('goes on after a job that failed', async () => {
    const ran: string[] = [];
    await new Promise<void>((finish) => {
      const submit = createJobRunner<Job>(async (job) => {
        ran.push(job.key);
        if (job.key === 'bad') throw new Error('render blew up');
        if (job.key === 'good') finish();
      });
      submit({ key: 'bad', priority: 'now' });
      submit({ key: 'good', priority: 'now' });
    });
    expect(ran).toEqual(['bad', 'good']);
  });

  it('says when the last job handed over has run, once per drain', async () => {
    const events: string[] = [];
    let drained!: () => void;
    let submit!: (job: Job) => void;
    await new Promise<void>((finish) => {
      drained = finish;
      submit = createJobRunner<Job>(
        async (job) => {
          events.push(job.key);
          await Promise.resolve();
        },
        undefined,
        () => {
          events.push('drained');
          drained();
        },
      );
      submit({ key: 'a', priority: 'now' });
      submit({ key: 'b', priority: 'background' });
    });
    expect(events).toEqual(['a', 'b', 'drained']);
    await new Promise<void>((finish) => {
      drained = finish;
      submit({ key: 'c', priority: 'now' });
    });
    expect(events).toEqual(['a', 'b', 'drained', 'c', 'drained']);
  });
});
