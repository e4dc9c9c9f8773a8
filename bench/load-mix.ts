// The load's mix: readers drawn by weight (home, list pages, articles, view counts, downloads,
// assets, a missing page), and comments, admin edits and searches started at fixed rates. It keeps
// what the writers were told was saved, for the check after the run.
import { buildCommentBody } from '../tests/support/builders.ts';
import { type LoadRecorder } from './load-recorder.ts';

export const WORDS = ['study', 'notes', 'revision', 'exam', 'method', 'theory', 'practice', 'formula', 'diagram', 'summary'];

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

export interface MixSite {
  articles: number;
  categories: number;
  /** The /_astro scripts and styles the home page names. */
  assets: string[];
  pdfs: string[];
}

export class LoadMix {
  /** Set once the measured window is over: every loop ends after its request in flight. */
  stopping = false;
  /** Comments answered 201, and the last title each edited article was saved with. */
  readonly answeredComments: string[] = [];
  readonly lastTitles = new Map<number, string>();
  private commentSerial = 0;
  private editSerial = 0;
  private readonly recorder: LoadRecorder;
  private readonly site: MixSite;
  private readonly readers: Array<{ weight: number; run: () => Promise<unknown> }>;
  private readonly totalWeight: number;

  constructor(recorder: LoadRecorder, site: MixSite) {
    this.recorder = recorder;
    this.site = site;
    const { articles, categories, assets, pdfs } = site;
    const measure = recorder.measure.bind(recorder);
    // Weights out of 100.
    this.readers = [
      { weight: 12, run: () => measure('home', 'GET', Math.random() < 0.7 ? '/' : `/?page=${between(2, 5)}`) },
      {
        weight: 15,
        run: () => {
          const roll = Math.random();
          const url =
            roll < 0.3 ? '/blogs' : roll < 0.7 ? `/blogs?category=${between(1, categories)}` : `/blogs?page=${between(2, 30)}`;
          return measure('list page', 'GET', url);
        },
      },
      { weight: 48, run: () => measure('article', 'GET', `/blog/${between(1, articles)}`) },
      { weight: 10, run: () => measure('view count', 'PUT', `/api/blogs/${between(1, articles)}/click`) },
      { weight: 3, run: () => measure('download page', 'GET', '/download') },
      { weight: 6, run: () => measure('pdf download', 'GET', pick(pdfs)) },
      { weight: 5, run: () => measure('asset', 'GET', pick(assets)) },
      {
        weight: 1,
        run: () => measure('missing (404 expected)', 'GET', `/blog/${articles + between(1000, 9000)}`, { expect: 404 }),
      },
    ];
    this.totalWeight = this.readers.reduce((sum, r) => sum + r.weight, 0);
  }

  private pickReader(): () => Promise<unknown> {
    let roll = Math.random() * this.totalWeight;
    for (const reader of this.readers) {
      roll -= reader.weight;
      if (roll < 0) return reader.run;
    }
    return this.readers[0]!.run;
  }

  async readerLoop(): Promise<void> {
    while (!this.stopping) await this.pickReader()();
  }

  /** A worker that starts its task at a fixed rate (skipping ahead if the server fell behind). */
  async pacedLoop(perSecond: number, task: () => Promise<unknown>): Promise<void> {
    if (perSecond <= 0) return;
    const interval = 1000 / perSecond;
    let next = performance.now() + Math.random() * interval;
    while (!this.stopping) {
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.stopping) break;
      await task();
      next = Math.max(next + interval, performance.now() - interval);
    }
  }

  readonly postComment = async (): Promise<void> => {
    const text = `load comment ${++this.commentSerial}`;
    const answer = await this.recorder.measure('comment', 'POST', `/api/blogs/${between(1, this.site.articles)}/comment`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(buildCommentBody({ username: 'Load tester', comment: text })),
      expect: 201,
    });
    if (answer) this.answeredComments.push(text);
  };

  editLoop(token: string, bodies: Map<number, Record<string, unknown>>): () => Promise<void> {
    const ids = [...bodies.keys()];
    return async () => {
      const id = pick(ids);
      const title = `Load edit ${++this.editSerial}`;
      const answer = await this.recorder.measure('admin edit', 'PUT', `/api/blogs/${id}`, {
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ ...bodies.get(id), title }),
      });
      if (answer) this.lastTitles.set(id, title);
    };
  }

  readonly search = (): Promise<unknown> => {
    const words = Math.random() < 0.5 ? pick(WORDS) : `${pick(WORDS)} ${pick(WORDS)}`;
    return Math.random() < 0.5
      ? this.recorder.measure('search page', 'GET', `/blogs?search=${encodeURIComponent(words)}`)
      : this.recorder.measure('search API', 'GET', `/api/blogs?search=${encodeURIComponent(words)}&limit=10`);
  };
}
