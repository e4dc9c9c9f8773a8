import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { SearchUnavailable, type RenderedSearchPage, type SearchPageJob, type SearchPool } from './search-pool.ts';
import { answerSearchPage } from './search-page-answer.ts';

const page = (status: number): RenderedSearchPage => ({ status, headers: {}, body: new Uint8Array() });

/** An app whose search pool answers each page job with what `answer` says, and records the jobs. */
function appWith(limit: number, answer: (job: SearchPageJob) => Promise<RenderedSearchPage>) {
  const jobs: SearchPageJob[] = [];
  const search = {
    run: () => Promise.reject(new Error('no API search here')),
    renderPage: (job: SearchPageJob) => (jobs.push(job), answer(job)),
    hasWorker: () => true,
    close: async () => {},
  } satisfies SearchPool;
  const app = { config: { rateLimits: { searchIp: limit, searchWindowSeconds: 10 } }, search } as unknown as AppContext;
  return { app, jobs };
}

describe('answerSearchPage', () => {
  it('has the worker render an allowed search, and the polite 429 page once the address is over its allowance', async () => {
    const { app, jobs } = appWith(2, async () => page(200));
    for (let i = 0; i < 3; i++)
      expect(await answerSearchPage(app, `/blogs?search=w${i}`, '203.0.113.1')).toMatchObject({ kind: 'page' });
    expect(jobs.map((job) => job.decision.refusal)).toEqual([null, null, 'limited']);
    // Not a search (blank text, a bad page number): rendered, never counted.
    expect(await answerSearchPage(app, '/blogs?search=%20&page=2', '203.0.113.1')).toMatchObject({ kind: 'page' });
    expect(await answerSearchPage(app, '/blogs?search=x&page=0', '203.0.113.1')).toMatchObject({ kind: 'page' });
    expect(jobs.slice(3).map((job) => job.decision.refusal)).toEqual([null, null]);
  });

  it('renders the busy page when the search is busy or ran out of time, and says it as plain text when that is full too', async () => {
    const busyThenPage = appWith(1000, async (job) => {
      if (job.decision.refusal === null) throw new SearchUnavailable('timeout');
      return page(503);
    });
    expect(await answerSearchPage(busyThenPage.app, '/blogs?search=slow', '198.51.100.7')).toMatchObject({
      kind: 'page',
      page: { status: 503 },
    });
    expect(busyThenPage.jobs.map((job) => job.decision.refusal)).toEqual([null, 'busy']);

    const full = appWith(1000, () => Promise.reject(new SearchUnavailable('busy')));
    expect(await answerSearchPage(full.app, '/blogs?search=any', '198.51.100.8')).toEqual({
      kind: 'plain',
      status: 503,
      retryAfterSeconds: 5,
      message: 'Search is busy right now. Please try again in a few seconds.',
    });
  });

  it('leaves the page to Astro, with the decision taken, when no worker renders pages', async () => {
    const { app } = appWith(1000, () => Promise.reject(new SearchUnavailable('no-worker')));
    expect(await answerSearchPage(app, '/blogs?search=any', '192.0.2.9')).toEqual({ kind: 'astro', decision: { refusal: null } });
  });
});
