import type { PageStore, PatchRules, StoredPage, WholePage } from './store.ts';
import type { RefreshQueue } from './refresh-queue.ts';
import { RenderFailed, type RenderPool, type RenderPriority } from './render-pool.ts';
import type { WorkerAnswer } from './render-worker.ts';
import { asBuffer, pageInputOf } from './stored-page.ts';
import { BACKGROUND_GATHER_MS, StoreBatch } from './store-batch.ts';
import { STORED_ENCODINGS, type PageEncoding } from './compress-page.ts';
import type { JobWork } from './render-protocol.ts';
import { readTagName, tag, tagName } from './site-tags.ts';

const TOP_VIEWED = tagName(tag.topViewed);

/**
 * What a background job may patch instead of rendering: the header and footer's data and those
 * whose versions they show (chrome-patch.ts), a category's name, written in where the components
 * show it (category-name-patch.ts), and the top-viewed list and the ticker, with the titles and
 * dates of the articles they show (block-patch.ts).
 */
const PATCH_RULES: PatchRules = {
  chromeTag: tagName(tag.nav),
  chromeTags: [tagName(tag.nav), tagName(tag.settings)],
  labelled: (name: string) => readTagName(name)?.kind === 'category-name',
  blockTag: (name: string) => name === TOP_VIEWED || readTagName(name)?.kind === 'in-block',
};

export interface RenderResult {
  /** The stored page, when the answer was a storable page. */
  page: WholePage | null;
  /** The raw answer, for everything that is not stored (404s, redirects, opted-out pages). */
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/**
 * Encodings waiting for a worker, at most: past it a reader's ask is dropped (the next one asks
 * again). Kept short: the jobs wait in the pool's background line, and a rename's refresh queued
 * behind 2,000 of them (made for a freshly pre-rendered site read at random) refreshed nothing
 * while readers ran.
 */
const MAX_ENCODINGS_WAITING = 32;

/**
 * Renders of one request that a take-down overtook, at most: each is thrown away and the page
 * rendered again (a take-down a render cannot outrun is an admin's loop, not a reader's page).
 */
const RENDERS_AFTER_TAKE_DOWN = 3;

/** Stale pages whose readers' encodings are remembered for their refresh, at most. */
const MAX_ENCODINGS_WANTED = 100_000;

const DROPPED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'x-page-tags', 'content-length']);

/** The answer for a render whose worker died twice: that page only, a plain 500. */
function failedRender(): RenderResult {
  return {
    page: null,
    status: 500,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from('The page could not be rendered. Please try again.'),
  };
}

/** The answer for a page whose renders take-downs kept overtaking: try again in a moment. */
function unavailableRender(): RenderResult {
  return {
    page: null,
    status: 503,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '1' },
    body: Buffer.from('The page is being updated. Please try again.'),
  };
}

/**
 * Renders pages on the render pool's worker threads and stores what comes back. The serving
 * thread only stores: it never runs Astro for a page. One render per key at a time: concurrent
 * requests for the same page wait for that render.
 */
export class PageRenderer {
  /** Where stale pages go to be re-rendered in the background (installed by the front server). */
  background: RefreshQueue | null = null;
  private readonly store: PageStore;
  private readonly pool: RenderPool<WorkerAnswer>;
  private readonly inFlight = new Map<string, { startedAt: number; promise: Promise<RenderResult> }>();
  /**
   * Encodings readers took of stale pages, by key, for their background renders to make, with the
   * version (`renderedAt`) those readers were answered: a want outlives nothing newer stored.
   */
  private readonly wanted = new Map<string, { renderedAt: number; encodings: Set<PageEncoding> }>();
  /** Encodings being made for readers, by encoding, ETag and key: one job each however many ask. */
  private readonly encoding = new Map<string, Promise<void>>();
  private waitedFor = 0;
  /** Background jobs whose worker patched the stored page (its header and footer, its top-viewed list) instead of rendering it. */
  patched = 0;
  /** Of those, pages naming a renamed category whose new name the worker wrote in (category-name-patch.ts). */
  renamed = 0;
  /**
   * The background refresh's pages, several to a transaction: after a rename refreshed every page
   * one commit at a time, the serving threads spent on those commits the CPU readers needed.
   */
  private readonly backgroundWrites: StoreBatch;

  constructor(store: PageStore, pool: RenderPool<WorkerAnswer>) {
    this.store = store;
    this.pool = pool;
    this.backgroundWrites = new StoreBatch(store, { keepInMemory: false, gatherMs: BACKGROUND_GATHER_MS });
  }

  /** Pages rendered by the workers so far. */
  get renders(): number {
    return this.pool.status().rendered;
  }

  /** `now` when someone waits for it (a reader's miss, a save); `background` for the refresh queue. */
  render(key: string, priority: RenderPriority = 'now'): Promise<RenderResult> {
    const startedAt = this.store.beginRender();
    const running = this.inFlight.get(key);
    // Joined only when no change came since it was asked for: an older render may show old data
    // (and is not stored), so a save's hot page gets a render of its own.
    if (running && running.startedAt === startedAt) return running.promise;
    const entry = { startedAt, promise: this.renderOnce(key, priority, startedAt) };
    this.inFlight.set(key, entry);
    void entry.promise.then(
      () => this.forget(key, entry),
      () => this.forget(key, entry),
    );
    return entry.promise;
  }

  private forget(key: string, entry: { promise: Promise<RenderResult> }): void {
    if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
  }

  /**
   * Encodings a worker is making now for readers who wait for them. Those made in the background
   * (for the next readers, or all of a site's brotli copies after a pre-render) do not count: with
   * them counted, a reader of a freshly pre-rendered site got the page uncompressed twice running.
   */
  get encodingsUnderWay(): number {
    return this.waitedFor;
  }

  /**
   * Makes an encoding a reader took that the stored page does not have yet, on a render worker
   * (`now`: a reader waits for it; `background`: readers meanwhile get an encoding the page has),
   * and the store keeps it for the next readers. One job per page and encoding however many ask.
   * Only the encodings readers take are ever made: most pages of a large site are rarely read,
   * and compressing every page to both encodings at render was a fifth of the pre-render.
   */
  encode(page: StoredPage, encoding: PageEncoding, priority: RenderPriority): Promise<void> {
    const id = `${encoding} ${page.etag} ${page.key}`;
    const underWay = this.encoding.get(id);
    if (underWay) return underWay;
    // Another process may have made it already: then the file has it.
    if (page[encoding] || this.store.copyOf(page, encoding)) return Promise.resolve();
    // A copy read for a reader of another encoding holds no body: this version's, from the file or
    // made from its brotli copy (none: the page was stored again since, and its next reader reads that one).
    const body = this.store.copyOf(page, 'identity');
    if (!body) return Promise.resolve();
    const making = this.pool
      // A copy of its own: the body may be a view on a larger buffer, which a message would copy whole.
      .render(page.key, priority, { encodings: [encoding], body: new Uint8Array(body) })
      .then(
        (answer) => {
          if (answer[encoding]) this.store.keepEncoding(page, encoding, asBuffer(answer[encoding]));
        },
        (error: unknown) => console.error(`[page-store] could not make the ${encoding} encoding of ${page.key}:`, error),
      )
      .finally(() => {
        this.encoding.delete(id);
        if (priority === 'now') this.waitedFor--;
      });
    if (priority === 'now') this.waitedFor++;
    this.encoding.set(id, making);
    return making;
  }

  /**
   * A reader took this encoding of a stale page: its background render makes it with the page
   * (a compress job now would be thrown away with the stale version, and after a rename would
   * take the workers from the refresh itself).
   */
  wantEncoding(page: Pick<StoredPage, 'key' | 'renderedAt'>, encoding: PageEncoding): void {
    const wanted = this.wanted.get(page.key);
    if (wanted?.renderedAt === page.renderedAt) wanted.encodings.add(encoding);
    else if (wanted || this.wanted.size < MAX_ENCODINGS_WANTED)
      this.wanted.set(page.key, { renderedAt: page.renderedAt, encodings: new Set([encoding]) });
  }

  /** `encode` in the background, unless too many are waiting already (the next reader asks again). */
  encodeLater(page: StoredPage, encoding: PageEncoding): void {
    if (this.encoding.size < MAX_ENCODINGS_WAITING) void this.encode(page, encoding, 'background');
  }

  /**
   * Writes the background pages waiting for their batch (they wait up to BACKGROUND_GATHER_MS):
   * before the store closes, so a page rendered just then is kept rather than written to a closed file.
   */
  flushWrites(): void {
    this.backgroundWrites.flush();
  }

  /** Re-renders these pages now; errors are logged, never thrown. */
  async warm(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.render(key).catch((error: unknown) => {
          console.error(`[page-store] could not re-render ${key}:`, error);
        }),
      ),
    );
  }

  /**
   * The encodings a background render of `key` makes: brotli, the copy the store keeps instead of
   * the body, and those readers took of it, before or while it was stale.
   */
  private encodingsFor(key: string): PageEncoding[] {
    const wanted = this.wanted.get(key);
    this.wanted.delete(key);
    const stored = this.store.encodingsOf(key);
    const encodings = stored?.encodings ?? [];
    // Wants of an older version than the one stored now are spent: another process refreshed the
    // page meanwhile (a reader's refresh goes to one process, whichever answered the reader).
    const stillWanted = wanted && (!stored || wanted.renderedAt === stored.renderedAt) ? wanted.encodings : [];
    for (const encoding of [...STORED_ENCODINGS, ...stillWanted]) if (!encodings.includes(encoding)) encodings.push(encoding);
    return encodings;
  }

  private backgroundWork(key: string): JobWork {
    const patch = this.store.patchFor(key, PATCH_RULES);
    return { encodings: this.encodingsFor(key), ...(patch ? { patch } : {}) };
  }

  /**
   * startedAt: taken before the job is queued, so a change while it waits or renders keeps it out
   * of the store. A take-down during the render (an article unpublished, a comment hidden) may
   * have come after the reader's request, or be cached by a shared cache after its purge: that
   * render is not answered either, the page is rendered again.
   */
  private async renderOnce(key: string, priority: RenderPriority, startedAt: number, attempt = 1): Promise<RenderResult> {
    let answer: WorkerAnswer;
    try {
      // A reader or a save waits for a `now` render: its encodings are made on the first request
      // for each, off this path. The background makes those readers took of the page before, and
      // patches a page only the nav or the top-viewed list left stale instead of rendering it.
      answer = await this.pool.render(key, priority, priority === 'background' ? this.backgroundWork(key) : {});
    } catch (error) {
      if (!(error instanceof RenderFailed)) throw error;
      console.error(`[page-store] ${error.message}`);
      return failedRender();
    }
    if (answer.patched) this.patched++;
    if (answer.renamed) this.renamed++;
    const input = pageInputOf(answer);
    if (input && this.store.takenDownSince(input.tags, startedAt)) {
      if (attempt < RENDERS_AFTER_TAKE_DOWN) return this.renderOnce(key, priority, this.store.beginRender(), attempt + 1);
      return unavailableRender();
    }
    const body = input?.body ?? asBuffer(answer.body);
    let page: WholePage | null = null;
    if (input) {
      const entry = { key, input, renderStartedAt: startedAt };
      page = priority === 'background' ? await this.backgroundWrites.add(entry) : this.store.put(key, input, startedAt);
    }
    // A page that is gone (a deleted article) must not be answered from its old stored copy (the
    // 404 page itself is stored with its 404).
    if (!input && (answer.status === 404 || answer.status === 410)) this.store.remove(key);
    const kept: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (!DROPPED_HEADERS.has(name)) kept[name] = value;
    return { page, status: answer.status, headers: kept, body };
  }
}
