import { describe, expect, it } from 'vitest';
import type { RenderedSearchPage, SearchAnswer, SearchPageDecision, SearchPageLocals, SearchRequest } from '../ports.ts';
import { LIST_PAGE_SIZE } from '../../shared/site-map/page-sizes.ts';
import { isSearchUnavailable, SearchUnavailable } from './search-pool.ts';
import { createSearchPageRender, type SearchPageRenderOptions } from './search-page-render.ts';

const answer = (total: number): SearchAnswer => ({ total, capped: false, hits: [], correctedTo: null });
const allowed: SearchPageDecision = { refusal: null };
const limited: SearchPageDecision = { refusal: 'limited', retryAfterSeconds: 3 };
const searchFor = (text: string): SearchRequest => ({ text, categoryId: null, page: 1, pageSize: LIST_PAGE_SIZE });

/** A renderer whose renders finish only when the test says; it records what each was told. */
function heldRenders() {
  const rendered: Array<{ url: string; locals: SearchPageLocals; finish: () => void }> = [];
  const render = (url: string, locals: SearchPageLocals) =>
    new Promise<RenderedSearchPage>((resolve) => {
      rendered.push({ url, locals, finish: () => resolve({ status: 200, headers: {}, body: new TextEncoder().encode(url) }) });
    });
  return { rendered, render };
}

function setUp(options: Partial<SearchPageRenderOptions> = {}) {
  const searched: SearchRequest[] = [];
  const held = heldRenders();
  const renderPage = createSearchPageRender({
    run: async (request) => (searched.push(request), answer(7)),
    render: held.render,
    ...options,
  });
  return { searched, rendered: held.rendered, renderPage };
}

/** Lets the promise chains waiting on a search or a render move on. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createSearchPageRender', () => {
  it('searches first, then has the page rendered with the answer and the request it answers', async () => {
    const { searched, rendered, renderPage } = setUp();
    const request = { text: 'cell biology', categoryId: 4, page: 2, pageSize: LIST_PAGE_SIZE };
    const page = renderPage({ url: '/blogs?search=cell%20biology&category=4&page=2', decision: allowed, search: request });
    await settle();
    expect(searched).toEqual([request]);
    expect(rendered.map(({ url, locals }) => ({ url, locals }))).toEqual([
      {
        url: '/blogs?search=cell%20biology&category=4&page=2',
        locals: { decision: allowed, done: { request, answer: answer(7) } },
      },
    ]);
    rendered[0]!.finish();
    expect((await page).status).toBe(200);
  });

  it('searches nothing for a page that runs no search (refused, a blank search, a bad page number)', async () => {
    const { searched, rendered, renderPage } = setUp();
    const pages = [
      renderPage({ url: '/blogs?search=cells', decision: limited, search: null }),
      renderPage({ url: '/blogs?search=%20', decision: allowed, search: null }),
      renderPage({ url: '/blogs?search=cells&page=0', decision: allowed, search: null }),
    ];
    for (let turn = 0; turn < 3; turn++) {
      await settle();
      rendered[turn]!.finish();
    }
    expect((await Promise.all(pages)).map((p) => p.status)).toEqual([200, 200, 200]);
    expect(searched).toEqual([]);
    expect(rendered.map(({ locals }) => locals)).toEqual([
      { decision: limited, done: null },
      { decision: allowed, done: null },
      { decision: allowed, done: null },
    ]);
  });

  it('renders none when the search could not run, and says why', async () => {
    const { rendered, renderPage } = setUp({ run: () => Promise.reject(new SearchUnavailable('timeout')) });
    const error = await renderPage({ url: '/blogs?search=slow', decision: allowed, search: searchFor('slow') }).catch(
      (e: unknown) => e,
    );
    expect(isSearchUnavailable(error) && error.reason).toBe('timeout');
    expect(rendered).toEqual([]);
  });

  it("takes one page at a time, searched then rendered, refused searches' pages in turn with the others, each lane bounded", async () => {
    const { searched, rendered, renderPage } = setUp({ maxWaiting: 2, maxRefusals: 1 });
    const outcome = (url: string, decision: SearchPageDecision) =>
      renderPage({
        url,
        decision,
        search: decision.refusal === null ? searchFor(url.slice('/blogs?search='.length)) : null,
      }).then(
        (page) => new TextDecoder().decode(page.body),
        (error: unknown) => (isSearchUnavailable(error) ? error.reason : error),
      );
    const first = outcome('/blogs?search=a', allowed);
    await settle();
    // One renders; behind it two searched pages and one refused page wait, and no more.
    const waiting = [
      outcome('/blogs?search=b', allowed),
      outcome('/blogs?search=c', allowed),
      outcome('/blogs?search=r1', limited),
    ];
    await settle();
    expect(await outcome('/blogs?search=d', allowed)).toBe('busy');
    expect(await outcome('/blogs?search=r2', { refusal: 'busy' })).toBe('busy');
    expect(rendered.map(({ url }) => url)).toEqual(['/blogs?search=a']);
    // The next page is not even searched while one is under way.
    expect(searched.map(({ text }) => text)).toEqual(['a']);
    for (let turn = 0; turn < 4; turn++) {
      rendered[turn]!.finish();
      await settle();
      await settle();
    }
    expect(rendered.map(({ url }) => url)).toEqual(['/blogs?search=a', '/blogs?search=r1', '/blogs?search=b', '/blogs?search=c']);
    expect(searched.map(({ text }) => text)).toEqual(['a', 'b', 'c']);
    expect(await Promise.all([first, ...waiting])).toEqual([
      '/blogs?search=a',
      '/blogs?search=b',
      '/blogs?search=c',
      '/blogs?search=r1',
    ]);
  });
});
