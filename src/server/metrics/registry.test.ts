import { describe, expect, it } from 'vitest';
import { AggregatorRegistry } from 'prom-client';
import { SiteMetrics } from './registry.ts';

describe('SiteMetrics', () => {
  it('writes counters, histograms and gauges in the Prometheus text format', async () => {
    const metrics = new SiteMetrics();
    const hit = metrics.pagesServed.labels({ state: 'hit' });
    hit.inc();
    hit.inc();
    metrics.pagesServed.inc({ state: 'stale' });
    metrics.purges.inc({ kind: 'purge', result: 'failed' });
    metrics.renders.observe(0.004);
    metrics.renders.observe(0.2);
    metrics.gauge('site_refresh_queue_depth', 'Stale pages waiting.', () => 7);
    const text = await metrics.render();
    expect(text).toContain('# TYPE site_pages_served_total counter\n');
    expect(text).toContain('site_pages_served_total{state="hit"} 2\n');
    expect(text).toContain('site_pages_served_total{state="stale"} 1\n');
    expect(text).toContain('site_cdn_purges_total{kind="purge",result="failed"} 1\n');
    expect(text).toContain('site_page_render_seconds_bucket{le="0.005"} 1\n');
    expect(text).toContain('site_page_render_seconds_bucket{le="0.25"} 2\n');
    expect(text).toContain('site_page_render_seconds_bucket{le="+Inf"} 2\n');
    expect(text).toContain('site_page_render_seconds_count 2\n');
    expect(text).toContain('site_refresh_queue_depth 7\n');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('escapes label values', async () => {
    const metrics = new SiteMetrics();
    metrics.pagesServed.inc({ state: 'a"b\\c' });
    expect(await metrics.render()).toContain('site_pages_served_total{state="a\\"b\\\\c"} 1');
  });

  it("adds up several processes' metrics as the first process answers a scrape", async () => {
    const processes = [new SiteMetrics(), new SiteMetrics()];
    processes.forEach((metrics, i) => {
      for (let n = 0; n <= i; n++) metrics.pagesServed.inc({ state: 'hit' });
      metrics.renders.observe(0.004);
      metrics.gauge('site_page_store_memory_pages', 'Stored pages held in memory.', () => 10 * (i + 1));
    });
    const sum = AggregatorRegistry.aggregate(await Promise.all(processes.map((m) => m.registry.getMetricsAsJSON())));
    const text = await sum.metrics();
    expect(text).toContain('site_pages_served_total{state="hit"} 3\n');
    expect(text).toContain('site_page_render_seconds_bucket{le="0.005"} 2\n');
    expect(text).toContain('site_page_render_seconds_count 2\n');
    expect(text).toContain('site_page_store_memory_pages 30\n');
  });
});
