/** How a page store is opened (`new PageStore(options)`). */
export interface PageStoreOptions {
  dir: string;
  buildId: string;
  /** Memory budget for hot pages, every encoding made so far counted. */
  memoryBytes?: number;
  /** Disk budget: past it the least recently used pages are dropped. */
  maxBytes?: number;
  /** Where a damaged store file or a failing write is reported. */
  log?: (line: string) => void;
  /** Test seam: every write to the file fails as on a full disk. */
  failWrites?: boolean;
  /**
   * A reader's page is judged by tag versions read from the file at most this long ago (ms; 0:
   * at every read). A change answers only once every process has looked again (`seenEverywhere`).
   */
  versionCheckMs?: number;
  /** Check the file at open (a start): a damaged one is set aside, or the store serves without it. */
  check?: boolean;
  /**
   * A damaged file may be renamed aside (default). False while other processes have it open: the
   * store then serves without it and marks it for the next start.
   */
  setAside?: boolean;
}

export interface StoreStats {
  pages: number;
  diskBytes: number;
  memoryPages: number;
  memoryBytes: number;
}
