import http from 'node:http';
import type { SiteMetrics } from './registry.ts';

/**
 * The metrics listener (METRICS_ADDRESS): a server of its own on an address only the operator
 * reaches, so readers of the site can never scrape it, whatever the proxy in front passes.
 * It answers GET /metrics and nothing else.
 */
export async function startMetricsListener(
  address: { host: string; port: number },
  metrics: SiteMetrics,
): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found: metrics are at GET /metrics\n');
      return;
    }
    const body = metrics.render();
    res.writeHead(200, {
      'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Length': Buffer.byteLength(body),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolve());
  });
  const bound = server.address();
  const port = typeof bound === 'object' && bound ? bound.port : address.port;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return { server, origin: `http://${host}:${port}` };
}
