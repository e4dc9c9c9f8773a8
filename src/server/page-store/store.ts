import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { openStoreFile, type StoreFile, type StoredPage } from './store-file.ts';

export type { StoredPage } from './store-file.ts';

/**
 * The page store: rendered pages with their three encodings, kept in a SQLite file of their own
 * (a page is written in one transaction, so a kill -9 mid-write leaves the old page or the new one,
 * never half of either) with the hot ones in memory.
 *
 * Freshness is versioned per tag: a page records the version of every tag it carries when it was
 * rendered; invalidating a tag bumps its version, so the cost of a change is O(number of tags it
 * touched), whatever the number of stored pages. A page is fresh when all its tags still have the
 * versions it recorded and it was rendered by the running build.
 */
export interface PageStoreOptions {
  dir: string;
  buildId: string;
  /** Memory budget for hot pages, all three encodings counted. */
  memoryBytes?: number;
  /** Where a damaged store file is reported (moved aside, started empty). */
  log?: (line: string) => void;
}

export interface StoreStats {
  pages: number;
  memoryPages: number;
  memoryBytes: number;
}

function sizeOf(page: StoredPage): number {
  return page.body.length + page.gzip.length + page.br.length + 256;
}

export function compressPage(body: Buffer): { gzip: Buffer; br: Buffer } {
  return {
    gzip: zlib.gzipSync(body, { level: 6 }),
    br: zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
  };
}

export class PageStore {
  readonly buildId: string;
  private readonly file: StoreFile;
  private readonly versions = new Map<string, number>();
  /** Sequence number of each tag's last invalidation, to catch renders that raced a change. */
  private readonly invalidatedAt = new Map<string, number>();
  private sequence = 0;
  private readonly memory = new Map<string, StoredPage>();
  private memoryUsed = 0;
  private readonly memoryLimit: number;

  constructor(options: PageStoreOptions) {
    this.buildId = options.buildId;
    this.memoryLimit = options.memoryBytes ?? 48 * 1024 * 1024;
    this.file = openStoreFile(options.dir, options.log);
    for (const row of this.file.readTagVersions()) this.versions.set(row.tag, row.version);
    this.file.keepOnlyBuild(this.buildId);
  }

  /** The number of pages stored on disk. */
  count(): number {
    return this.file.countPages();
  }

  stats(): StoreStats {
    return { pages: this.count(), memoryPages: this.memory.size, memoryBytes: this.memoryUsed };
  }

  /** Starts a render: remember this and pass it to put(), so a change during the render is not lost. */
  beginRender(): number {
    return this.sequence;
  }

  isFresh(page: StoredPage): boolean {
    if (page.buildId !== this.buildId) return false;
    for (const tag in page.tags) {
      if ((this.versions.get(tag) ?? 0) !== page.tags[tag]) return false;
    }
    return true;
  }

  /** A stored page, fresh or stale, from memory or disk. */
  get(key: string): StoredPage | undefined {
    const hot = this.memory.get(key);
    if (hot) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.memory.delete(key);
      this.memory.set(key, hot);
      return hot;
    }
    const page = this.file.readPage(key);
    if (!page) return undefined;
    this.remember(page);
    return page;
  }

  /**
   * Stores a freshly rendered page. Returns null, storing nothing, when one of its tags was
   * invalidated after the render began: that render may show old data.
   */
  put(
    key: string,
    input: { contentType: string; body: Buffer; tags: string[]; gzip?: Buffer; br?: Buffer },
    renderStartedAt: number,
    options: { keepInMemory?: boolean } = {},
  ): StoredPage | null {
    for (const tag of input.tags) {
      if ((this.invalidatedAt.get(tag) ?? -1) >= renderStartedAt) return null;
    }
    const tags: Record<string, number> = {};
    for (const tag of input.tags) tags[tag] = this.versions.get(tag) ?? 0;
    const { gzip, br } = input.gzip && input.br ? { gzip: input.gzip, br: input.br } : compressPage(input.body);
    const page: StoredPage = {
      key,
      contentType: input.contentType,
      etag: `"${crypto.createHash('sha1').update(input.body).digest('base64url').slice(0, 22)}"`,
      body: input.body,
      gzip,
      br,
      tags,
      renderedAt: Date.now(),
      buildId: this.buildId,
    };
    this.file.writePage(page);
    // A full pre-render passes false: memory is for the pages readers ask for, not for all of them.
    if (options.keepInMemory ?? true) this.remember(page);
    else this.forget(key);
    return page;
  }

  /** Marks every page carrying one of these tags stale: O(number of tags). */
  invalidate(tags: string[]): void {
    this.sequence++;
    this.file.bumpTags([...new Set(tags)], (tag, version) => {
      this.versions.set(tag, version);
      this.invalidatedAt.set(tag, this.sequence);
    });
    this.sequence++;
  }

  close(): void {
    this.file.close();
  }

  private forget(key: string): void {
    const previous = this.memory.get(key);
    if (previous) {
      this.memoryUsed -= sizeOf(previous);
      this.memory.delete(key);
    }
  }

  private remember(page: StoredPage): void {
    const previous = this.memory.get(page.key);
    if (previous) {
      this.memoryUsed -= sizeOf(previous);
      this.memory.delete(page.key);
    }
    const size = sizeOf(page);
    if (size > this.memoryLimit / 4) return;
    this.memory.set(page.key, page);
    this.memoryUsed += size;
    for (const [key, old] of this.memory) {
      if (this.memoryUsed <= this.memoryLimit) break;
      this.memory.delete(key);
      this.memoryUsed -= sizeOf(old);
    }
  }
}
