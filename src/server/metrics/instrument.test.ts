import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { PageRenderer } from '../page-store/renderer.ts';
import type { RefreshQueue } from '../page-store/refresh-queue.ts';
import type { RenderPool, RenderPriority } from '../page-store/render-pool.ts';
import type { WorkerAnswer } from '../page-store/render-worker.ts';
import type { PageStore } from '../page-store/store.ts';
import { instrumentSite } from './instrument.ts';
import { SiteMetrics } from './registry.ts';

describe('instrumentSite', () => {
  it('times renders without changing their priority (a background refresh stays behind readers and saves)', async () => {
    const asked: Array<[string, RenderPriority]> = [];
    const pool = {
      render: (key: string, priority: RenderPriority) => {
        asked.push([key, priority]);
        const answer: WorkerAnswer = {
          key,
          status: 404,
          headers: {},
          setsCookie: false,
          tags: null,
          body: new Uint8Array(),
          gzip: null,
          br: null,
        };
        return Promise.resolve(answer);
      },
      status: () => ({ rendered: asked.length }),
    } as unknown as RenderPool<WorkerAnswer>;
    const store = {
      beginRender: () => 1,
      put: () => null,
      remove: () => undefined,
      stats: () => ({ memoryPages: 0, memoryBytes: 0 }),
    } as unknown as PageStore;
    const queue = { status: () => ({ queued: 0 }) } as unknown as RefreshQueue;
    const renderer = new PageRenderer(store, pool);
    const metrics = new SiteMetrics();
    instrumentSite(metrics, { context: {} as AppContext, store, renderer, queue });

    await renderer.render('/blogs?page=7', 'background');
    await renderer.render('/blog/1');

    expect(asked).toEqual([
      ['/blogs?page=7', 'background'],
      ['/blog/1', 'now'],
    ]);
    expect(metrics.render()).toContain('site_page_render_seconds_count 2\n');
  });
});
