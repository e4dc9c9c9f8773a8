import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { resolveInside, serveFile } from './static-files.ts';
import {
  readPagePolicy,
  securityHeaderList,
  setSecurityHeaders,
  SERVICE_WORKER_POLICY,
  UPLOAD_POLICY,
} from './security-headers.ts';
import type { PageStore } from '../page-store/store.ts';
import type { PageRenderer } from '../page-store/renderer.ts';
import { pageKeyOf } from '../page-store/site-map.ts';
import { answerPage, servedCountsIn, type StoredPages } from './page-answer.ts';
import type { SiteMetrics } from '../metrics/registry.ts';
import { narrowPolicyOfAnswer } from './page-policy.ts';
import { correctStatusText } from './status-text.ts';
import { findUploadByPath } from '../db/repositories/uploads.ts';
import { readHostRules, refuseMisdirected } from './host-check.ts';
import { answerHealth } from './healthz.ts';
import { markAstroAnswer } from '../cdn/astro-answers.ts';
import { isSearchPageRequest, respondWithSearchPage } from './search-responder.ts';
import { createUnknownPathCheck } from './unknown-paths.ts';
import { respondWithNotFoundPage } from './not-found-responder.ts';
import type { NotFoundPacer } from './not-found-pacer.ts';
import { answerOldAddress, oldAddressOf } from './old-addresses.ts';
import { changeMayFollow } from './render-wake.ts';
import { guardSlowClients } from './slow-clients.ts';

export type AstroHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
  locals: object,
) => Promise<void>;

export interface ServerParts {
  context: AppContext;
  astro: AstroHandler;
  clientDir: string;
  /** The page store and its renderer; without them every page is rendered per request. */
  pages?: { store: PageStore; renderer: PageRenderer };
  /** Paces the stored 404 page's answers to unknown addresses (a flood waits, readers don't). */
  notFound?: NotFoundPacer;
  /** This process's metrics: stored pages answered are counted there. */
  metrics: SiteMetrics;
  /** Called for each request Astro answers and each search page: a render may follow (render-wake.ts). */
  wakeRenderers?: () => void;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function notFoundPlain(res: ServerResponse): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('Not found');
}

/**
 * The front door: hashed assets and uploads are answered here, everything else goes to Astro.
 * Plain Node answers files several times faster than the adapter's own static handler.
 */
export function createRequestListener(parts: ServerParts) {
  const { context, astro, clientDir, pages, notFound, metrics, wakeRenderers } = parts;
  const tls = context.config.publicOrigin.startsWith('https:');
  // Read once, as the server starts; until it is known (a few ms) page answers wait for it.
  const pagePolicy = pages ? readPagePolicyOnce(context.config.publicOrigin) : null;
  const common = securityHeaderList(tls);
  let knownPolicy: string | null | undefined;
  void pagePolicy?.then((policy) => (knownPolicy = policy));
  const hostRules = readHostRules(context.config.publicOrigin);
  const cdn = context.config.cdn;
  const isUnknownPath = createUnknownPathCheck(clientDir);
  const answerSettings = { common, cdn, served: servedCountsIn(metrics) };
  /**
   * A request for a stored page: one plan (`page-answer.ts`), the key computed and the store read
   * once. Until the page policy is known (a few ms after start) the answer waits for it.
   */
  const answerStored = (req: IncomingMessage, res: ServerResponse, key: string, pages: StoredPages): void => {
    if (knownPolicy !== undefined) return answerPage(req, res, key, pages, knownPolicy, answerSettings);
    void pagePolicy!.then((policy) => answerPage(req, res, key, pages, policy, answerSettings));
  };

  /** Everything after the old-address look-up; `paced`: this request already waited its turn as an unknown address. */
  const route = (req: IncomingMessage, res: ServerResponse, rawUrl: string, paced: boolean): void => {
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    if (pages && isRead) {
      const key = pageKeyOf(rawUrl);
      if (key) return answerStored(req, res, key, pages);
      // An address no route claims: the stored 404 page, never a render per address, answered
      // after the requests that arrived with it and paced (a flood of made-up addresses waits,
      // readers don't).
      if (isUnknownPath(rawUrl)) {
        const answer = () => {
          if (!res.destroyed) void pagePolicy!.then((policy) => respondWithNotFoundPage(req, res, pages, common, policy));
        };
        if (notFound && !paced) notFound.admit(answer);
        else setImmediate(answer);
        return;
      }
    }
    setSecurityHeaders(res, common);
    const queryAt = rawUrl.indexOf('?');
    const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);

    if (isRead && pathname === '/healthz') {
      answerHealth(req, res, context.sqlite, pages ? context.config.pageStoreDir : null);
      return;
    }

    if (isRead && pathname.startsWith('/_astro/')) {
      const file = resolveInside(path.join(clientDir, '_astro'), pathname.slice('/_astro/'.length));
      if (!file || !serveFile(req, res, file, { cacheControl: IMMUTABLE, precompressed: true })) notFoundPlain(res);
      return;
    }

    if (pathname.startsWith('/uploads/')) {
      if (!isRead) {
        res.statusCode = 405;
        res.setHeader('Allow', 'GET, HEAD');
        res.end();
        return;
      }
      const relative = pathname.slice('/uploads/'.length);
      const file = resolveInside(context.config.uploadsDir, relative);
      if (!file) return notFoundPlain(res);
      const extra: Record<string, string> = { 'Content-Security-Policy': UPLOAD_POLICY };
      const send = () => {
        // Uploaded names are random and never reused, so they can be cached for good.
        if (!serveFile(req, res, file, { cacheControl: 'public, max-age=31536000, immutable', extra })) notFoundPlain(res);
      };
      if (!file.toLowerCase().endsWith('.pdf')) return send();
      // PDFs download under the name they were uploaded with (cleaned when stored), else their own.
      void findUploadByPath(context.db, relative)
        .catch(() => undefined)
        .then((upload) => {
          extra['Content-Disposition'] = attachmentDisposition(upload?.original_name ?? path.basename(file));
          send();
        });
      return;
    }

    // The service worker: checked for a new version on every visit (no-cache).
    if (isRead && pathname === '/sw.js') {
      const file = resolveInside(clientDir, pathname);
      const extra = { 'Content-Security-Policy': SERVICE_WORKER_POLICY };
      if (file && serveFile(req, res, file, { cacheControl: 'no-cache', extra })) return;
    }

    if (isRead && /^\/[\w.-]+\.(ico|png|txt|webmanifest|svg)$/.test(pathname) && pathname !== '/robots.txt') {
      const file = resolveInside(clientDir, pathname);
      if (file && serveFile(req, res, file, { cacheControl: 'public, max-age=86400' })) return;
    }

    const toAstro = (locals: Partial<App.Locals> = {}) => {
      // A write or the admin: a change may follow, and its renders then find the render workers
      // started (they stop after a quiet spell).
      if (changeMayFollow(req.method ?? 'GET', pathname)) wakeRenderers?.();
      correctStatusText(res);
      markAstroAnswer(req, res, cdn, isRead ? pageKeyOf(rawUrl) : null);
      // Only pages carry the page policy; /api answers are JSON and keep Node's plain writes.
      if (!pathname.startsWith('/api/')) narrowPolicyOfAnswer(res);
      void astro(req, res, () => notFoundPlain(res), { ...locals, app: context });
    };

    // A search is counted here and searched and rendered by the search worker, never on this thread.
    const searchPages = context.searchPages;
    if (isRead && searchPages && isSearchPageRequest(pathname, rawUrl)) {
      // A reader who searched often searches again, and the next connection may reach a sibling.
      wakeRenderers?.();
      respondWithSearchPage(req, res, rawUrl, searchPages, context.config.trustProxy, (decision) =>
        toAstro({ searchPage: decision }),
      );
      return;
    }

    toAstro();
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    if (refuseMisdirected(req, res, hostRules)) return;
    const rawUrl = toOriginForm(req.url ?? '/');
    if (rawUrl === null) {
      setSecurityHeaders(res, common);
      res.statusCode = 400;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Bad request');
      return;
    }
    // Everything below, Astro included, routes on the same path.
    req.url = rawUrl;
    const oldAddress = req.method === 'GET' || req.method === 'HEAD' ? oldAddressOf(rawUrl, isUnknownPath) : null;
    if (!oldAddress) return route(req, res, rawUrl, false);
    // An imported site's old address: a 301 to its article, else the request goes on (`old-addresses.ts`).
    const paced = oldAddress.kind === 'unknown-path';
    const lookUp = () => {
      if (res.destroyed) return;
      answerOldAddress(
        req,
        res,
        context.db,
        oldAddress.path,
        (r) => setSecurityHeaders(r, common),
        () => route(req, res, rawUrl, paced),
      );
    };
    // An address no route claims is paced before its look-up, as its 404 would be: a flood of
    // made-up addresses must not cost a database query each at full speed.
    if (notFound && paced) notFound.admit(lookUp);
    else lookUp();
  };
}

/**
 * The request target as a path: an absolute-form target (`GET http://host/path`, legal in
 * HTTP/1.1) is reduced to its path, so it meets the same file and page rules as `GET /path`;
 * `*` and anything else that is not a path is refused (null).
 */
export function toOriginForm(target: string): string | null {
  if (target.startsWith('/')) return target;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!absolute) return null;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * Without the page policy stored pages keep the strict default policy: readable, but no script
 * runs. That is a broken build (security.csp off), so it is logged loudly.
 */
function readPagePolicyOnce(origin: string): Promise<string | null> {
  return readPagePolicy(origin).catch((error: unknown) => {
    console.error('[security] stored pages are served without their scripts:', error instanceof Error ? error.message : error);
    return null;
  });
}

/** RFC 6266: an ASCII fallback name and the exact one in UTF-8. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\w.() -]/g, '_').slice(0, 100) || 'download.pdf';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function createHttpServer(parts: ServerParts): http.Server {
  const server = http.createServer(createRequestListener(parts));
  // Slow clients are cut off early; a reverse proxy in front should use similar limits. Checked
  // every second (Node's own check runs every 30 s) and counted in this process's turns, so a
  // process that fell behind does not blame its clients (slow-clients.ts).
  guardSlowClients(server, { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 });
  server.keepAliveTimeout = 5_000;
  return server;
}

/** Listens on `host`:`port` (0: any free port) and gives the origin it listens on. */
export async function listenOn(server: http.Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
}
