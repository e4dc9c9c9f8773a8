import type { IncomingMessage, ServerResponse } from 'node:http';
import type SQLite from 'better-sqlite3';
import { pingDatabase, probeWrite } from '../db/repositories/health.ts';
import { noteWriteWorked, writeTroubles, type WriteTrouble } from '../db/write-health.ts';
import { checkStoreFile } from '../page-store/store-open.ts';

/**
 * GET /healthz: what Varnish's probe and a load balancer call. 200 when the database answers a
 * query, its last write (and the rate-limit file's beside it) did not fail for want of storage,
 * and the page store's file opens and reads; 503 naming the part that failed otherwise. Never
 * cached, answered under any Host name (host-check.ts), and cheap: two small reads.
 *
 * Anyone may ask, so the body holds fixed words only ("disk full", "write failed",
 * "unavailable"), never an error's own text (paths, SQL); the log has those.
 */
type DatabaseState = 'ok' | WriteTrouble | 'unavailable';

/** While a write trouble lasts, a probe write is tried at most this often (the answer in between repeats the trouble). */
const PROBE_EVERY_MS = 1000;
let lastProbeAt = 0;

export function answerHealth(
  req: IncomingMessage,
  res: ServerResponse,
  sqlite: SQLite.Database,
  pageStoreDir: string | null,
): void {
  const checks: { database: DatabaseState; store: string } = {
    database: databaseState(sqlite),
    store: pageStoreDir ? 'ok' : 'off',
  };
  if (pageStoreDir) {
    try {
      // Its own short read-only connection: the store's own one hides failures (it is a cache).
      checkStoreFile(pageStoreDir);
    } catch {
      checks.store = 'unavailable';
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

function databaseState(sqlite: SQLite.Database): DatabaseState {
  try {
    pingDatabase(sqlite);
  } catch {
    return 'unavailable';
  }
  const troubles = writeTroubles();
  if (troubles.size === 0) return 'ok';
  // Nothing else may write meanwhile (a Varnish in front stops sending requests to a failing
  // backend): the probe is what sees the trouble end.
  const now = Date.now();
  if (now - lastProbeAt >= PROBE_EVERY_MS) {
    lastProbeAt = now;
    for (const file of [...troubles.keys()]) if (probeWrite(file)) noteWriteWorked(file);
  }
  const left = [...writeTroubles().values()];
  if (left.length === 0) return 'ok';
  return left.includes('disk full') ? 'disk full' : 'write failed';
}
