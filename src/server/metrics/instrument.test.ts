import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import type { PageRenderer, RenderResult } from '../page-store/renderer.ts';
import type { RenderPriority } from '../page-store/render-pool.ts';
import type { RefreshQueue } from '../page-store/refresh-queue.ts';
import type { PageStore } from '../page-store/store.ts';
import { instrumentSite } from './instrument.ts';
import { SiteMetrics } from './registry.ts';

describe('instrumentSite', () => {
  it('times renders without changing what is asked: the priority reaches the renderer', async () => {
    const asked: Array<[string, RenderPriority | undefined]> = [];
    const renderer = {
      render: (key: string, priority?: RenderPriority) => {
        asked.push([key, priority]);
        return Promise.resolve({} as RenderResult);
      },
    } as unknown as PageRenderer;
    const metrics = new SiteMetrics();
    instrumentSite(metrics, {
      context: {} as AppContext,
      store: {} as PageStore,
      renderer,
      queue: {} as RefreshQueue,
    });
    await renderer.render('/blogs?page=9', 'background');
    await renderer.render('/blog/1');
    expect(asked).toEqual([
      ['/blogs?page=9', 'background'],
      ['/blog/1', undefined],
    ]);
    expect(metrics.renders.render()).toContain('site_page_render_seconds_count 2');
  });
});
