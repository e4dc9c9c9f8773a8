import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PageStore, StoredPage } from '../page-store/store.ts';
import type { PageRenderer } from '../page-store/renderer.ts';
import { NOT_FOUND_KEY } from '../page-store/not-found-page.ts';
import { PRIVATE_CACHE_CONTROL } from '../cdn/cache-headers.ts';
import { bodyIn, policyOf } from './page-headers.ts';
import { acceptedEncodings, type Encoding } from './encodings.ts';

/**
 * The 404 answer for an address no route claims (`unknown-paths.ts`): the site's 404 page from
 * the store, at a stored page's cost (one write of a header list made once per page), whatever
 * the address, so a flood of made-up addresses neither renders anything nor adds to the store.
 * A stale copy is answered and queued for the background refresh; with none stored (the first
 * start, before the pre-render stored it) it is rendered once for every waiting reader.
 *
 * As when Astro answered these: `private, no-store`, so no shared cache keeps one entry per
 * made-up address; no ETag (a 404 is never a 304). An encoding the page lacks is made by a worker
 * in the background while the reader takes one it has.
 */
export function respondWithNotFoundPage(
  req: IncomingMessage,
  res: ServerResponse,
  pages: { store: PageStore; renderer: PageRenderer },
  common: string[],
  pagePolicy: string | null,
): void {
  const { store, renderer } = pages;
  const answer = (page: StoredPage, state: string) => send(req, res, pages, page, state, common, pagePolicy);
  const stored = store.get(NOT_FOUND_KEY);
  if (stored && store.isFresh(stored)) return answer(stored, 'HIT');
  if (stored && stored.buildId === store.buildId && renderer.background) {
    renderer.background.enqueue([NOT_FOUND_KEY]);
    return answer(stored, 'STALE');
  }
  renderer.render(NOT_FOUND_KEY).then(
    (result) => {
      if (result.page) return answer(result.page, stored ? 'REFRESHED' : 'MISS');
      // Not storable (a render that failed twice): the address is still unknown.
      plainNotFound(res);
    },
    (error: unknown) => {
      console.error('[page-store] render of the 404 page failed:', error);
      plainNotFound(res);
    },
  );
}

/** Raw header lists of the stored 404 page's answers, by state and encoding. */
const answerHeaders = new WeakMap<StoredPage, Partial<Record<string, string[]>>>();

function send(
  req: IncomingMessage,
  res: ServerResponse,
  pages: { store: PageStore; renderer: PageRenderer },
  page: StoredPage,
  state: string,
  common: string[],
  pagePolicy: string | null,
): void {
  const { store, renderer } = pages;
  const accepted = acceptedEncodings(req.headers['accept-encoding']);
  const wanted = accepted[0]!;
  // A copy read for another reader may hold one encoding only: the body is taken from the file then.
  const encoding = accepted.find((e) => bodyIn(page, e) !== null) ?? (store.copyOf(page, 'identity') ? 'identity' : null);
  if (encoding === null) return plainNotFound(res);
  if (encoding !== wanted && wanted !== 'identity') {
    if (state === 'STALE') renderer.wantEncoding(page, wanted);
    else renderer.encodeLater(page, wanted);
  }
  // Read like any stored page: the refresh queue and the store's eviction see it is in use.
  store.requests.note(NOT_FOUND_KEY);
  res.writeHead(
    404,
    headersFor(
      page,
      state,
      encoding,
      common,
      policyOf(page, pagePolicy, () => store.copyOf(page, 'identity')),
    ),
  );
  res.end(req.method === 'HEAD' ? undefined : bodyIn(page, encoding)!);
}

function headersFor(page: StoredPage, state: string, encoding: Encoding, common: string[], policy: string | null): string[] {
  let perPage = answerHeaders.get(page);
  if (!perPage) answerHeaders.set(page, (perPage = {}));
  const name = `${state} ${encoding}`;
  let list = perPage[name];
  if (!list) {
    list = [];
    for (let i = 0; i < common.length; i += 2) {
      list.push(common[i]!, policy && common[i] === 'Content-Security-Policy' ? policy : common[i + 1]!);
    }
    list.push('Cache-Control', PRIVATE_CACHE_CONTROL, 'Vary', 'Accept-Encoding', 'X-Page-Store', state);
    list.push('Content-Type', page.contentType);
    if (encoding !== 'identity') list.push('Content-Encoding', encoding);
    list.push('Content-Length', String(bodyIn(page, encoding)!.length));
    perPage[name] = list;
  }
  return list;
}

function plainNotFound(res: ServerResponse): void {
  if (res.headersSent) return void res.end();
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': PRIVATE_CACHE_CONTROL });
  res.end('Not found');
}
