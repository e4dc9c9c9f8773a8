import zlib from 'node:zlib';
import type { StoreFile, StoredPage, WholePage } from './store-file.ts';
import type { StoreGuard } from './store-guard.ts';
import { BUFFER_OVERHEAD, type PageMemory } from './page-memory.ts';
import type { StoreDisk } from './store-disk.ts';
import { fieldOf, type StoredEncodings } from './store-reads.ts';
import { PAGE_ENCODINGS, type PageCopy, type PageEncoding } from './compress-page.ts';

const PAGE_COPIES: readonly PageCopy[] = ['identity', ...PAGE_ENCODINGS];

/**
 * The copies of the store's pages (as rendered, gzip, brotli): a page read from the file for a
 * reader holds only the copy that reader takes, so memory holds several times as many pages; the
 * others are taken from the file when asked, for that same version of the page only. A page with
 * its brotli copy keeps no body in the file (four times the bytes): the body is made from the
 * brotli copy for the reader who takes no encoding.
 */
export class PageCopies {
  private readonly file: StoreFile;
  private readonly guard: StoreGuard;
  private readonly memory: PageMemory;
  private readonly disk: StoreDisk;
  /** Pages read from the file in one copy only: `whole` takes the others when asked. */
  private readonly partial = new WeakSet<StoredPage>();

  constructor(file: StoreFile, guard: StoreGuard, memory: PageMemory, disk: StoreDisk) {
    this.file = file;
    this.guard = guard;
    this.memory = memory;
    this.disk = disk;
  }

  /** The page from the file: in the first copy of `order` it has, else with every copy. */
  read(key: string, order: readonly PageCopy[] | undefined): StoredPage | undefined {
    const page = this.guard.run('read', () => (order ? this.file.readPageIn(key, order) : this.file.readPage(key))) ?? undefined;
    // A page kept in brotli only is partial too: `whole` makes its body.
    if (page && (order || !page.body)) this.partial.add(page);
    return page;
  }

  /** The page read for making `encoding`, when the file has it `fresh` and without that encoding. */
  lacking(key: string, encoding: PageEncoding, fresh: (page: StoredPage) => boolean): StoredPage | undefined {
    // Most pages have their brotli copy: known from the row's header, without reading the copy.
    const stored = this.guard.run('read', () => this.file.readEncodings(key));
    if (!stored || stored.encodings.includes(encoding)) return undefined;
    const page = this.read(key, [encoding, 'identity']);
    return page && !page[encoding] && fresh(page) ? page : undefined;
  }

  /** Another process rendered this page since the copy in memory: the file's copy, when it is `fresh`. */
  freshFromFile(
    key: string,
    order: readonly PageCopy[] | undefined,
    fresh: (row: Pick<StoredPage, 'tags' | 'buildId'>) => boolean,
  ): StoredPage | undefined {
    const row = this.guard.run('read', () => this.file.readPageTags(key));
    if (!row || !fresh(row)) return undefined;
    const page = this.read(key, order);
    if (!page) return undefined;
    this.disk.touch(key);
    this.memory.remember(page);
    return page;
  }

  /** The page with every copy the file has; undefined when the file no longer has its version. */
  whole(page: StoredPage): WholePage | undefined {
    if (!this.partial.has(page)) return page as WholePage;
    for (const copy of PAGE_COPIES) if (!page[fieldOf(copy)]) this.copyOf(page, copy);
    if (!page.body) return undefined;
    this.partial.delete(page);
    return page as WholePage;
  }

  /**
   * The page's bytes in this copy: held, or taken from the file (kept with the page); the body of
   * a page kept in brotli only is made from its brotli copy. Null when the file has none.
   */
  copyOf(page: StoredPage, copy: PageCopy): Buffer | null {
    const held = page[fieldOf(copy)];
    if (held) return held;
    let bytes = this.guard.run('read', () => this.file.readCopy(page, copy)) ?? null;
    if (!bytes && copy === 'identity') {
      const br = this.copyOf(page, 'br');
      // 35 µs for an article of 13 KB: the price of a file four times smaller, paid by the rare
      // reader that takes no encoding, once per page held in memory.
      if (br) bytes = zlib.brotliDecompressSync(br);
    }
    if (bytes) this.attach(page, copy, bytes);
    return bytes;
  }

  /** An encoding made after the page was stored: with the page at once, in the file with the others made meanwhile. */
  keep(page: StoredPage, encoding: PageEncoding, bytes: Buffer): void {
    if (page[encoding]) return;
    this.attach(page, encoding, bytes);
    this.disk.addEncoding({ page, encoding, bytes });
  }

  /**
   * The encodings the stored version of the page has, and that version (its `renderedAt`; null:
   * none stored). A copy in memory may hold fewer than the file, or one the file could not take;
   * an older copy held here than the file's (another process stored a newer one) counts for nothing.
   */
  encodingsOf(key: string): StoredEncodings | null {
    const hot = this.memory.peek(key);
    const inFile = this.guard.run('read', () => this.file.readEncodings(key));
    if (!hot || (inFile && hot.renderedAt < inFile.renderedAt)) return inFile ?? null;
    const encodings = PAGE_ENCODINGS.filter((encoding) => inFile?.encodings.includes(encoding) || hot[encoding] !== null);
    return { encodings, renderedAt: hot.renderedAt };
  }

  /** The copy goes with the page object, counted in memory when memory holds that page. */
  private attach(page: StoredPage, copy: PageCopy, bytes: Buffer): void {
    page[fieldOf(copy)] = bytes;
    this.memory.grown(page, bytes.length + BUFFER_OVERHEAD);
  }
}
