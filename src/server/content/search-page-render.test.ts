import { describe, expect, it } from 'vitest';
import type { RenderedSearchPage, SearchPageDecision } from '../ports.ts';
import { isSearchUnavailable } from './search-pool.ts';
import { createSearchPageRender, type SearchPageRenderOptions } from './search-page-render.ts';

const allowed: SearchPageDecision = { refusal: null };
const limited: SearchPageDecision = { refusal: 'limited', retryAfterSeconds: 3 };

/** A renderer whose renders finish only when the test says; it records what each was told. */
function heldRenders() {
  const rendered: Array<{ url: string; decision: SearchPageDecision; finish: () => void }> = [];
  const render = (url: string, decision: SearchPageDecision) =>
    new Promise<RenderedSearchPage>((resolve) => {
      rendered.push({ url, decision, finish: () => resolve({ status: 200, headers: {}, body: new TextEncoder().encode(url) }) });
    });
  return { rendered, render };
}

function setUp(options: Partial<SearchPageRenderOptions> = {}) {
  const held = heldRenders();
  const renderPage = createSearchPageRender({ render: held.render, ...options });
  return { rendered: held.rendered, renderPage };
}

/** Lets the promise chains waiting on a render move on. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createSearchPageRender', () => {
  it('has the render worker search and render the page with what was decided', async () => {
    const { rendered, renderPage } = setUp();
    const pages = [
      renderPage({ url: '/blogs?search=cell%20biology&category=4&page=2', decision: allowed }),
      renderPage({ url: '/blogs?search=cells', decision: limited }),
    ];
    for (let turn = 0; turn < 2; turn++) {
      await settle();
      rendered[turn]!.finish();
    }
    expect((await Promise.all(pages)).map((p) => p.status)).toEqual([200, 200]);
    expect(rendered.map(({ url, decision }) => ({ url, decision }))).toEqual([
      { url: '/blogs?search=cell%20biology&category=4&page=2', decision: allowed },
      { url: '/blogs?search=cells', decision: limited },
    ]);
  });

  it("gives the worker the page's time limit, and says a page over it timed out", async () => {
    const limits: number[] = [];
    const overTime = Object.assign(new Error('Render of /blogs?search=slow failed: it ran over its 60000 ms'), {
      timedOut: true,
    });
    const { renderPage } = setUp({
      render: (_url, _decision, limitMs) => (limits.push(limitMs), Promise.reject(overTime)),
    });
    const error = await renderPage({ url: '/blogs?search=slow', decision: allowed }).catch((e: unknown) => e);
    expect(isSearchUnavailable(error) && error.reason).toBe('timeout');
    expect(limits).toEqual([60_000]);
    // Any other failure is passed on as it is (answered 500).
    const broken = new Error('the render blew up');
    const other = setUp({ render: () => Promise.reject(broken) });
    expect(await other.renderPage({ url: '/blogs?search=x', decision: allowed }).catch((e: unknown) => e)).toBe(broken);
  });

  it("takes one page at a time, refused searches' pages in turn with the others, each lane bounded", async () => {
    const { rendered, renderPage } = setUp({ maxWaiting: 2, maxRefusals: 1 });
    const outcome = (url: string, decision: SearchPageDecision) =>
      renderPage({ url, decision }).then(
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
    // The next page is not handed to a worker while one is under way.
    expect(rendered.map(({ url }) => url)).toEqual(['/blogs?search=a']);
    for (let turn = 0; turn < 4; turn++) {
      rendered[turn]!.finish();
      await settle();
      await settle();
    }
    expect(rendered.map(({ url }) => url)).toEqual(['/blogs?search=a', '/blogs?search=r1', '/blogs?search=b', '/blogs?search=c']);
    expect(await Promise.all([first, ...waiting])).toEqual([
      '/blogs?search=a',
      '/blogs?search=b',
      '/blogs?search=c',
      '/blogs?search=r1',
    ]);
  });
});
