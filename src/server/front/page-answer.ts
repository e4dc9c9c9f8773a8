import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageStore, StoredPage } from '../page-store/store.ts';
import type { PageRenderer, RenderResult } from '../page-store/renderer.ts';
import type { PageEncoding } from '../page-store/compress-page.ts';
import type { CdnSettings } from '../config.ts';
import type { SiteMetrics } from '../metrics/registry.ts';
import { acceptedEncodings, type Encoding } from './encodings.ts';
import { setSecurityHeaders } from './security-headers.ts';
import {
  bodyIn,
  etagMatches,
  isPersonal,
  NO_SHARED_CACHE,
  policyOf,
  storedPageHeaders,
  type Audience,
  type PageState,
} from './page-headers.ts';

/**
 * A reader whose encoding the page does not have yet waits for a worker to make it (about half a
 * millisecond of brotli) while fewer than this many are under way in this process; past it (a
 * freshly pre-rendered site read at random, every request a first one) readers get an encoding
 * the page has at once, and the worker makes theirs in the background.
 */
const ENCODINGS_WAITED_FOR = 4;

export interface StoredPages {
  store: PageStore;
  renderer: PageRenderer;
}

/** Stored pages answered, by state (metrics). */
export type ServedCounts = Record<PageState, { inc(): void }>;

/**
 * What every stored page's answer carries: the security headers (name, value, ...) and the
 * shared-cache settings; and where it is counted.
 */
export interface AnswerSettings {
  common: string[];
  cdn: CdnSettings;
  served: ServedCounts;
}

/** The counters of `metrics` a stored page's answer bumps, labelled once rather than per answer. */
export function servedCountsIn(metrics: SiteMetrics): ServedCounts {
  const served = metrics.pagesServed;
  return {
    HIT: served.labels({ state: 'hit' }),
    STALE: served.labels({ state: 'stale' }),
    MISS: served.labels({ state: 'miss' }),
    REFRESHED: served.labels({ state: 'refreshed' }),
  };
}

/**
 * What to do with a request for a stored page, decided from one read of the store:
 * - `send`: write it now, in `encoding` (or a 304);
 * - `encode`: a worker makes the reader's encoding while the reader waits, then it is sent;
 * - `render`: none may be answered (not stored, another build's, or showing content taken down
 *   since): the reader waits for its render, or gets `stored` if that fails and it is `answerable`.
 */
export type PagePlan =
  | { kind: 'send'; page: StoredPage; state: PageState; encoding: Encoding | 'not-modified'; audience: Audience }
  | { kind: 'encode'; page: StoredPage; state: PageState; wanted: PageEncoding }
  | { kind: 'render'; stored: StoredPage | undefined; answerable: boolean };

/**
 * For a reader whose best encoding the page lacks: `wait` for a worker to make it now, or answer
 * in one the page has (`substitute`) while it is made. A stale page's refresh makes it; otherwise
 * the reader waits while few are under way in this process, and past that a worker makes it in
 * the background.
 */
function planEncoding(renderer: PageRenderer, page: StoredPage, wanted: PageEncoding, state: PageState): 'wait' | 'substitute' {
  if (state === 'STALE') renderer.wantEncoding(page, wanted);
  else if (renderer.encodingsUnderWay < ENCODINGS_WAITED_FOR) return 'wait';
  else renderer.encodeLater(page, wanted);
  return 'substitute';
}

/**
 * How a stored page goes to this reader: a 304, the reader's best encoding (held, or taken from the
 * file), or while a worker makes that one, the best the page has. `mayWait`: false once the
 * reader has waited for its encoding (it was not made: the answer goes in one the page has).
 */
export function planStoredPage(
  req: IncomingMessage,
  page: StoredPage,
  state: PageState,
  { store, renderer }: StoredPages,
  mayWait = true,
): PagePlan {
  const personal = isPersonal(req);
  if (etagMatches(req, page))
    return { kind: 'send', page, state, encoding: 'not-modified', audience: personal ? 'personal' : 'shared' };
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  const wanted = accepted[0]!;
  if (wanted !== 'identity' && !store.copyOf(page, wanted)) {
    if (mayWait && planEncoding(renderer, page, wanted, state) === 'wait') return { kind: 'encode', page, state, wanted };
  }
  // The best the reader takes that this copy holds, else one from the file (identity at worst).
  const encoding = accepted.find((e) => bodyIn(page, e) !== null) ?? accepted.find((e) => store.copyOf(page, e) !== null) ?? null;
  // Not even the body: the file holds a newer version than this copy. The reader gets a render.
  if (encoding === null) return { kind: 'render', stored: undefined, answerable: false };
  return { kind: 'send', page, state, encoding, audience: personal ? 'personal' : encoding === wanted ? 'shared' : 'substitute' };
}

/**
 * The one plan for a request for the stored page under `key`: the store read once, in the
 * encodings this reader takes. A fresh page is a HIT; a stale one (while a change's background
 * refresh runs, when every page of the site may be stale at once) is answered as it is, STALE, and
 * queued for that refresh, unless content it shows was taken down since.
 */
export function planPageAnswer(req: IncomingMessage, key: string, pages: StoredPages): PagePlan {
  const { store, renderer } = pages;
  const stored = store.get(key, acceptedEncodings(req.headers['accept-encoding']));
  if (!stored) return { kind: 'render', stored, answerable: false };
  store.requests.note(key);
  if (store.isFresh(stored)) return planStoredPage(req, stored, 'HIT', pages);
  // A page showing content taken down since it was rendered is never answered: the reader waits for its render.
  const answerable = !store.showsTakenDown(stored);
  if (answerable && stored.buildId === store.buildId && renderer.background) {
    renderer.background.enqueue([key]);
    return planStoredPage(req, stored, 'STALE', pages);
  }
  return { kind: 'render', stored, answerable };
}

/** Writes a planned stored page with one writeHead of a header list made once per page. */
export function sendPlanned(
  req: IncomingMessage,
  res: ServerResponse,
  plan: Extract<PagePlan, { kind: 'send' }>,
  pagePolicy: string | null,
  { common, cdn, served }: AnswerSettings,
  store: PageStore,
): void {
  const { page, state, encoding } = plan;
  const policy = policyOf(page, pagePolicy, () => store.copyOf(page, 'identity'));
  const headers = storedPageHeaders(page, state, encoding, plan.audience, common, policy, cdn);
  served[state].inc();
  if (encoding === 'not-modified') {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : bodyIn(page, encoding)!);
}

/**
 * Answers a request for the stored page under `key`, whatever it takes: at once from the store
 * (almost every request), after a worker made the reader's encoding, or after a render (MISS,
 * REFRESHED: once however many readers ask).
 */
export function answerPage(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  pages: StoredPages,
  pagePolicy: string | null,
  settings: AnswerSettings,
): void {
  const plan = planPageAnswer(req, key, pages);
  if (plan.kind === 'send') return sendPlanned(req, res, plan, pagePolicy, settings, pages.store);
  void carryOut(req, res, key, plan, pages, pagePolicy, settings);
}

async function carryOut(
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  plan: PagePlan,
  pages: StoredPages,
  pagePolicy: string | null,
  settings: AnswerSettings,
): Promise<void> {
  const { store, renderer } = pages;
  if (plan.kind === 'render') {
    let result: RenderResult;
    try {
      result = await renderer.render(key);
    } catch (error) {
      console.error(`[page-store] render of ${key} failed:`, error);
      // Better an older page than an error page, unless it shows what was taken down.
      if (plan.stored && plan.answerable) plan = planStoredPage(req, plan.stored, 'STALE', pages, false);
      if (plan.kind !== 'send') return unavailable(res, settings);
      return sendPlanned(req, res, plan, pagePolicy, settings, store);
    }
    if (!result.page) return sendRaw(req, res, result, settings);
    plan = planStoredPage(req, result.page, plan.stored ? 'REFRESHED' : 'MISS', pages);
  }
  if (plan.kind === 'encode') {
    await renderer.encode(plan.page, plan.wanted, 'now');
    plan = planStoredPage(req, plan.page, plan.state, pages, false);
  }
  if (plan.kind === 'send') sendPlanned(req, res, plan, pagePolicy, settings, store);
  else unavailable(res, settings);
}

function sendRaw(req: IncomingMessage, res: ServerResponse, result: RenderResult, { common }: AnswerSettings): void {
  setSecurityHeaders(res, common);
  res.statusCode = result.status;
  // The render worker narrowed its Content-Security-Policy to the document (narrow-policy.ts).
  for (const [name, value] of Object.entries(result.headers)) {
    if (value !== undefined && name !== 'content-length') res.setHeader(name, value);
  }
  res.setHeader('Content-Length', result.body.length);
  res.end(req.method === 'HEAD' ? undefined : result.body);
}

function unavailable(res: ServerResponse, { common }: AnswerSettings): void {
  if (!res.headersSent) {
    setSecurityHeaders(res, common);
    res.statusCode = 503;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Retry-After', '2');
  }
  res.end('The page could not be rendered. Please try again.');
}

export { NO_SHARED_CACHE };
