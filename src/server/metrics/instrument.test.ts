import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import type { PageRenderer } from '../page-store/renderer.ts';
import type { RefreshQueue } from '../page-store/refresh-queue.ts';
import type { PageStore } from '../page-store/store.ts';
import { instrumentSite } from './instrument.ts';
import { SiteMetrics } from './registry.ts';

describe('instrumentSite', () => {
  it('times renders and searches without changing what they are asked (a background render stays background)', async () => {
    const asked: unknown[][] = [];
    const renderer = { render: async (...args: unknown[]) => void asked.push(args) } as unknown as PageRenderer;
    const searched: unknown[] = [];
    const search = {
      run: async () => ({ total: 0, capped: false, hits: [], correctedTo: null }),
      renderPage: async (job: unknown) => (searched.push(job), { status: 200, headers: {}, body: new Uint8Array() }),
      hasWorker: () => true,
      close: async () => {},
    };
    const metrics = new SiteMetrics();
    instrumentSite(metrics, {
      context: { search } as unknown as AppContext,
      store: { stats: () => ({ memoryPages: 0, memoryBytes: 0 }) } as unknown as PageStore,
      renderer,
      queue: { status: () => ({ queued: 0 }) } as unknown as RefreshQueue,
    });
    await renderer.render('/blogs', 'background');
    await renderer.render('/');
    expect(asked).toEqual([['/blogs', 'background'], ['/']]);
    await search.renderPage({ url: '/blogs?search=a', decision: { refusal: null } });
    await search.renderPage({ url: '/blogs?search=b', decision: { refusal: 'busy' } });
    await search.run();
    expect(searched).toHaveLength(2);
    const text = await metrics.render();
    expect(text).toContain('site_page_render_seconds_count 2\n');
    // The refused page is no search.
    expect(text).toContain('site_search_seconds_count 2\n');
  });
});
