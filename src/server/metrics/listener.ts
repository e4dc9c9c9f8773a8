import http from 'node:http';

/**
 * The metrics listener (METRICS_ADDRESS): a server of its own on an address only the operator
 * reaches, so readers of the site can never scrape it, whatever the proxy in front passes.
 * It answers GET /metrics and nothing else: this process's metrics, or with several serving
 * processes the first process's sum over them (`registry.ts`).
 */
export async function startMetricsListener(
  address: { host: string; port: number },
  metrics: { render: () => Promise<string> },
): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not found: metrics are at GET /metrics\n');
      return;
    }
    metrics.render().then(
      (body) => {
        res.writeHead(200, {
          'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
          'Cache-Control': 'no-store',
          'Content-Length': Buffer.byteLength(body),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        // A serving process that did not answer (starting, stopping): this scrape fails, the next one counts.
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(`Metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
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
