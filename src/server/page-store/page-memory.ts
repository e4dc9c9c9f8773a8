import { RecencyMap } from '../../shared/recency-map.ts';
import type { StoredPage } from './store-file.ts';

/**
 * What a held Buffer costs beyond its bytes (its ArrayBuffer, view and backing store record), and
 * each tag of a page's versions (a property of an object whose keys differ from page to page).
 */
export const BUFFER_OVERHEAD = 160;
const TAG_OVERHEAD = 80;
/**
 * The rest of a page held in memory: the page object, its ETag, its entry here, and the header
 * list of its answer (page-headers.ts makes one per page and variant: about 750 bytes). Measured
 * with `npm run bench:page-memory` (a page's heap and ArrayBuffers after a full collection).
 */
const PAGE_OVERHEAD = 900;

/** The share of its budget the page memory lets go of beyond what a new page needs. */
export const TRIM_SLACK = 1 / 64;

/** What a page costs in memory: the copies it holds, and what holding it costs beyond them. */
export function sizeOf(page: StoredPage): number {
  let size = PAGE_OVERHEAD + 2 * page.key.length;
  for (const copy of [page.body, page.gzip, page.br]) if (copy) size += copy.length + BUFFER_OVERHEAD;
  for (const tag of page.tags.names) size += TAG_OVERHEAD + tag.length;
  return size;
}

/**
 * The hot stored pages, least recently used first, bounded by bytes (the copies each holds
 * counted). A page larger than a quarter of the budget is not kept. `onLeave` hears of each page
 * pushed out by newer ones (it was in use until then).
 */
export class PageMemory {
  private readonly pages = new RecencyMap<string, StoredPage>();
  private used = 0;
  private readonly limit: number;
  private readonly onLeave: (key: string) => void;

  constructor(limit: number, onLeave: (key: string) => void = () => {}) {
    this.limit = limit;
    this.onLeave = onLeave;
  }

  /** The keys held, least recently used first. */
  keys(): IterableIterator<string> {
    return this.pages.keys();
  }

  get size(): number {
    return this.pages.size;
  }

  get bytes(): number {
    return this.used;
  }

  /** The page, marked most recently used. */
  get(key: string): StoredPage | undefined {
    return this.pages.get(key);
  }

  has(key: string): boolean {
    return this.pages.has(key);
  }

  /** The page without marking it used. */
  peek(key: string): StoredPage | undefined {
    return this.pages.peek(key);
  }

  forget(key: string): void {
    const previous = this.pages.peek(key);
    if (!previous) return;
    this.used -= sizeOf(previous);
    this.pages.delete(key);
  }

  clear(): void {
    this.pages.clear();
    this.used = 0;
  }

  remember(page: StoredPage): void {
    this.forget(page.key);
    const size = sizeOf(page);
    if (size > this.limit / 4) return;
    this.pages.set(page.key, page);
    this.used += size;
    this.trim();
  }

  /** A page held here took `bytes` more (an encoding was added to it): counted, and the budget kept. */
  grown(page: StoredPage, bytes: number): void {
    if (this.pages.peek(page.key) !== page) return;
    this.used += bytes;
    this.trim();
  }

  private trim(): void {
    if (this.used <= this.limit) return;
    // Past the budget, a share more is let go at once. The map keeps the slots of pages moved to
    // its end until it is rebuilt, and each walk from its oldest end steps over them: one walk for
    // each page held took 3.6% of a serving thread under random readers.
    const target = this.limit * (1 - TRIM_SLACK);
    for (const [key, old] of this.pages) {
      if (this.used <= target) break;
      this.pages.delete(key);
      this.used -= sizeOf(old);
      this.onLeave(key);
    }
  }
}
