import type { IncomingMessage, ServerResponse } from 'node:http';
import type SQLite from 'better-sqlite3';
import { pingDatabase } from '../db/repositories/health.ts';
import { checkStoreFile } from '../page-store/store-file.ts';

/**
 * GET /healthz: what Varnish's probe and a load balancer call. 200 when the database answers a
 * query and the page store's file opens and reads; 503 naming the part that failed otherwise.
 * Never cached, answered under any Host name (host-check.ts), and cheap: two small reads.
 */
export function answerHealth(
  req: IncomingMessage,
  res: ServerResponse,
  sqlite: SQLite.Database,
  pageStoreDir: string | null,
): void {
  const checks = { database: 'ok', store: pageStoreDir ? 'ok' : 'off' };
  try {
    pingDatabase(sqlite);
  } catch (error) {
    checks.database = reason(error);
  }
  if (pageStoreDir) {
    try {
      // Its own short read-only connection: the store's own one hides failures (it is a cache).
      checkStoreFile(pageStoreDir);
    } catch (error) {
      checks.store = reason(error);
    }
  }
  const healthy = checks.database === 'ok' && (checks.store === 'ok' || checks.store === 'off');
  const body = JSON.stringify({ status: healthy ? 'ok' : 'failing', ...checks });
  res.writeHead(healthy ? 200 : 503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
