import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageStore, StoredPage } from '../page-store/store.ts';
import type { PageRenderer, RenderResult } from '../page-store/renderer.ts';
import type { PageEncoding } from '../page-store/compress-page.ts';
import { isHtml } from './security-headers.ts';
import { acceptedEncodings, pickEncoding, type Encoding } from './encodings.ts';
import { narrowPolicy } from './page-policy.ts';
import type { CdnSettings } from '../config.ts';
import { carriesSession, LOGGED_IN_PAGE_CACHE_CONTROL, sharedCacheHeaders } from '../cdn/cache-headers.ts';
import { siteMetrics } from '../metrics/registry.ts';

export { pickEncoding };

const NO_SHARED_CACHE: CdnSettings = { tagHeaders: [], purgeVarnish: [], maxAgeSeconds: 0, purgeSecret: null, purgeWaitMs: 0 };

/**
 * A reader whose encoding the page does not have yet waits for a worker to make it (about half a
 * millisecond of brotli) while fewer than this many are under way in this process; past it (a
 * freshly pre-rendered site read at random, every request a first one) readers get an encoding
 * the page has at once, and the worker makes theirs in the background.
 */
const ENCODINGS_WAITED_FOR = 4;

const served = siteMetrics().pagesServed;
const servedFast = { HIT: served.labels({ state: 'hit' }), STALE: served.labels({ state: 'stale' }) };

/** The states answered from the store on the fast path. */
type FastState = keyof typeof servedFast;

/** A request from a logged-in browser or an API client: its answer is for that person only. */
function isPersonal(req: IncomingMessage): boolean {
  return carriesSession(req.headers.cookie) || req.headers.authorization !== undefined;
}

function etagMatches(req: IncomingMessage, page: StoredPage): boolean {
  const match = req.headers['if-none-match'];
  if (!match) return false;
  const weak = `W/${page.etag}`;
  return match.split(',').some((value) => value.trim() === weak || value.trim() === page.etag);
}

/** Policies narrowed here, for stored HTML pages that came without one. */
const pagePolicies = new WeakMap<StoredPage, string>();

/**
 * Each stored HTML page's own policy: the build's, narrowed to the inline scripts and styles it
 * has. The render worker narrowed it and the store keeps it with the page, so a page answered
 * from memory or from the file costs no decoding, matching or hashing here; only a page stored
 * without one (by hand, in a test) is narrowed here, once per copy.
 */
export function policyOf(page: StoredPage, pagePolicy: string | null): string | null {
  if (!pagePolicy || !isHtml(page.contentType)) return null;
  if (page.policy) return page.policy;
  let policy = pagePolicies.get(page);
  if (!policy) pagePolicies.set(page, (policy = narrowPolicy(pagePolicy, page.body.toString('utf8'))));
  return policy;
}

/** The page's body in this encoding, or null when that encoding has not been made yet. */
export function bodyIn(page: StoredPage, encoding: Encoding): Buffer | null {
  return encoding === 'identity' ? page.body : page[encoding];
}

/**
 * The encoding to answer in: the best this reader takes (`wanted`), or, until a worker has made
 * that one, the best the page has that the reader takes (identity at worst).
 */
export function encodingFor(req: IncomingMessage, page: StoredPage): { encoding: Encoding; wanted: Encoding } {
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  return { encoding: accepted.find((encoding) => bodyIn(page, encoding) !== null) ?? 'identity', wanted: accepted[0]! };
}

/**
 * For a reader whose best encoding the page lacks: `wait` for a worker to make it now, or answer
 * in one the page has (`substitute`) while it is made. A stale page's refresh makes it; otherwise
 * the reader waits while few are under way in this process, and past that a worker makes it in
 * the background.
 */
function planEncoding(renderer: PageRenderer, page: StoredPage, wanted: PageEncoding, state: string): 'wait' | 'substitute' {
  if (state === 'STALE') renderer.wantEncoding(page.key, wanted);
  else if (renderer.encodingsUnderWay < ENCODINGS_WAITED_FOR) return 'wait';
  else renderer.encodeLater(page, wanted);
  return 'substitute';
}

/** Raw header lists of a stored page's fast answers, made once per page, state and encoding. */
const hitHeaders = new WeakMap<StoredPage, Partial<Record<string, string[]>>>();

/**
 * `substitute`: the page is sent in another encoding than the reader's best, which is being made;
 * a shared cache must not keep that answer for the reader's encoding, so it gets none of the
 * shared-cache headers (no s-maxage: not stored) and asks again.
 */
function headersForHit(
  page: StoredPage,
  state: FastState,
  variant: Encoding | 'not-modified',
  common: string[],
  pagePolicy: string | null,
  cdn: CdnSettings,
  substitute = false,
): string[] {
  let perPage = hitHeaders.get(page);
  if (!perPage) hitHeaders.set(page, (perPage = {}));
  const name = `${state} ${variant}${substitute ? ' substitute' : ''}`;
  let list = perPage[name];
  if (!list) {
    const policy = policyOf(page, pagePolicy);
    list = [
      ...common.flatMap((value, i) =>
        i % 2 === 0 && policy && value === 'Content-Security-Policy'
          ? [value, policy]
          : i % 2 === 0
            ? [value, common[i + 1]!]
            : [],
      ),
      ...sharedCacheHeaders(substitute ? NO_SHARED_CACHE : cdn, Object.keys(page.tags), page.key, state === 'STALE'),
      'ETag',
      `W/${page.etag}`,
      'Vary',
      'Accept-Encoding',
      'X-Page-Store',
      state,
    ];
    // A 304 describes no body (RFC 9110 section 15.4.5): the browser keeps the type it has.
    if (variant !== 'not-modified') {
      list.push('Content-Type', page.contentType, 'X-Rendered-At', String(page.renderedAt));
      if (variant !== 'identity') list.push('Content-Encoding', variant);
      list.push('Content-Length', String(bodyIn(page, variant)!.length));
    }
    perPage[name] = list;
  }
  return list;
}

/**
 * The hottest path of the site: a stored page, answered with one writeHead of a header list made
 * once per page. A fresh page is a HIT; a stale one (while a change's background refresh runs,
 * when every page of the site may be stale at once) is answered as it is, STALE, and queued for
 * that refresh, unless content it shows was taken down since (left to the slower path). A page not yet in the encoding this reader takes best goes in one it has, while
 * a render worker makes that one. `common` is the security header list every answer carries
 * (name, value, ...). Returns false, having written nothing, when the page is not stored or is of
 * another build.
 */
export function answerStoredHit(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  store: PageStore,
  common: string[],
  pagePolicy: string | null,
  cdn: CdnSettings = NO_SHARED_CACHE,
  renderer: PageRenderer | null = null,
): boolean {
  const background = renderer?.background ?? null;
  // Logged-in requests take the slower path, which marks their answers private.
  if (req.headers.cookie !== undefined || req.headers.authorization !== undefined) {
    if (isPersonal(req)) return false;
  }
  const page = store.get(key);
  if (!page) return false;
  const state: FastState = store.isFresh(page) ? 'HIT' : 'STALE';
  // After a take-down the slower path renders the page and the reader waits for it.
  if (state === 'STALE' && (!background || page.buildId !== store.buildId || store.showsTakenDown(page))) return false;
  let status = 304;
  let body: Buffer | null = null;
  let headers: string[];
  if (etagMatches(req, page)) headers = headersForHit(page, state, 'not-modified', common, pagePolicy, cdn);
  else {
    const { encoding, wanted } = encodingFor(req, page);
    // Waiting is the slower path's: shared caches then get the reader's encoding.
    if (encoding !== wanted && wanted !== 'identity' && (!renderer || planEncoding(renderer, page, wanted, state) === 'wait'))
      return false;
    body = bodyIn(page, encoding)!;
    status = 200;
    headers = headersForHit(page, state, encoding, common, pagePolicy, cdn, encoding !== wanted);
  }
  store.requests.note(key);
  servedFast[state].inc();
  if (state === 'STALE') background!.enqueue([key]);
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' || status === 304 ? undefined : body);
  return true;
}

/**
 * Answers a stored page in the encoding this reader takes (or, while a worker makes that one, in
 * one the page has). pagePolicy: the build's Content-Security-Policy for HTML pages (a stored page
 * keeps no headers), narrowed to the page.
 */
export async function sendStoredPage(
  req: IncomingMessage,
  res: ServerResponse,
  renderer: PageRenderer,
  page: StoredPage,
  state: string,
  pagePolicy: string | null = null,
  cdn: CdnSettings = NO_SHARED_CACHE,
): Promise<void> {
  let { encoding, wanted } = encodingFor(req, page);
  if (encoding !== wanted && wanted !== 'identity' && !etagMatches(req, page)) {
    if (planEncoding(renderer, page, wanted, state) === 'wait') {
      await renderer.encode(page, wanted, 'now');
      ({ encoding, wanted } = encodingFor(req, page));
    }
  }
  const substitute = encoding !== wanted;
  const etag = `W/${page.etag}`;
  const policy = policyOf(page, pagePolicy);
  if (policy) res.setHeader('Content-Security-Policy', policy);
  served.inc({ state: state.toLowerCase() });
  if (isPersonal(req)) res.setHeader('Cache-Control', LOGGED_IN_PAGE_CACHE_CONTROL);
  else {
    const shared = sharedCacheHeaders(substitute ? NO_SHARED_CACHE : cdn, Object.keys(page.tags), page.key, state === 'STALE');
    for (let i = 0; i < shared.length; i += 2) res.setHeader(shared[i]!, shared[i + 1]!);
  }
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('X-Page-Store', state);
  if (etagMatches(req, page)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const body = bodyIn(page, encoding)!;
  res.setHeader('Content-Type', page.contentType);
  res.setHeader('X-Rendered-At', String(page.renderedAt));
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendRaw(req: IncomingMessage, res: ServerResponse, result: RenderResult): void {
  res.statusCode = result.status;
  for (const [name, value] of Object.entries(result.headers)) {
    if (value !== undefined && name !== 'content-length') res.setHeader(name, value);
  }
  // The render worker narrowed its Content-Security-Policy to the document (narrow-policy.ts).
  res.setHeader('Content-Length', result.body.length);
  res.end(req.method === 'HEAD' ? undefined : result.body);
}

/**
 * The fast path: a fresh stored page is answered from memory (or disk) without entering Astro.
 * A stale one is answered as it is (STALE) and queued for the background refresh; a page with no
 * stored version, or whose stored version shows content taken down since, is rendered while the
 * reader waits (MISS, REFRESHED), once however many ask.
 */
export async function respondWithPage(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  store: PageStore,
  renderer: PageRenderer,
  pagePolicy: string | null = null,
  cdn: CdnSettings = NO_SHARED_CACHE,
): Promise<void> {
  const stored = store.get(key);
  if (stored) store.requests.note(key);
  if (stored && store.isFresh(stored)) {
    await sendStoredPage(req, res, renderer, stored, 'HIT', pagePolicy, cdn);
    return;
  }
  // A page showing content taken down since it was rendered is never answered: the reader waits for its render.
  const answerable = stored !== undefined && !store.showsTakenDown(stored);
  if (stored && answerable && stored.buildId === store.buildId && renderer.background) {
    renderer.background.enqueue([key]);
    await sendStoredPage(req, res, renderer, stored, 'STALE', pagePolicy, cdn);
    return;
  }
  let result: RenderResult;
  try {
    result = await renderer.render(key);
  } catch (error) {
    console.error(`[page-store] render of ${key} failed:`, error);
    if (stored && answerable) {
      // Better an older page than an error page, unless it shows what was taken down.
      await sendStoredPage(req, res, renderer, stored, 'STALE', pagePolicy, cdn);
      return;
    }
    if (!res.headersSent) {
      res.statusCode = 503;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Retry-After', '2');
    }
    res.end('The page could not be rendered. Please try again.');
    return;
  }
  if (result.page) await sendStoredPage(req, res, renderer, result.page, stored ? 'REFRESHED' : 'MISS', pagePolicy, cdn);
  else sendRaw(req, res, result);
}
