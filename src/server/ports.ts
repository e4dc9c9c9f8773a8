import type { BlogSummary } from './db/repositories/blogs.ts';

/*
 * The shapes of the parts the app context holds (the search worker, the search-page answerer, the
 * PDF reader, the view counter, the word index, the background jobs), as types only. They live
 * here, beside context.ts and below the services that implement them, so the context never
 * imports a service: the content modules re-export them for their own callers.
 */

export type MatchPlace = 'title' | 'text' | 'pdf';

export interface Snippet {
  /** Plain text with each match between \u0002 and \u0003; never HTML. */
  text: string;
  where: MatchPlace[];
}

export interface SearchRequest {
  text: string;
  categoryId: number | null;
  page: number;
  pageSize: number;
  /** The API's slice of the ranking: only its ids are answered (no cards, no snippets); page and pageSize are ignored. */
  idSlice?: { offset: number; limit: number } | undefined;
}

export interface SearchHit {
  blog: BlogSummary;
  snippet: Snippet;
}

export interface SearchAnswer {
  /** Matches, at most RESULT_CAP. */
  total: number;
  /** More matched than RESULT_CAP. */
  capped: boolean;
  hits: SearchHit[];
  /** The words searched instead of misspelled ones, when the misspelling search found something. */
  correctedTo: string | null;
  /** With `idSlice`: the ranked ids of that slice. */
  ids?: number[];
}

/**
 * Whether a search page may search, decided before it is rendered: by the front server's thread
 * (which counts the address's allowance in the shared store, then has a render worker search and
 * render the page), or by the page itself under `astro dev`. `busy`: the search pages' queue was full.
 */
export type SearchPageDecision = { refusal: null } | { refusal: 'limited'; retryAfterSeconds: number } | { refusal: 'busy' };

/** A /blogs page with a search, to be searched and rendered off the serving thread as the front server decided. */
export interface SearchPageJob {
  /** Path and query, e.g. `/blogs?search=notes&page=2`. */
  url: string;
  decision: SearchPageDecision;
}

/** Astro's answer for a search page. */
export interface RenderedSearchPage {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface SearchPool {
  run(request: SearchRequest): Promise<SearchAnswer>;
  /**
   * A search page off the serving thread: searched and rendered by a render worker, in one job
   * (search-page-render.ts). A refused search's page (over the allowance, or busy) waits in a
   * short lane of its own, taken in turn with the searches' pages.
   */
  renderPage(job: SearchPageJob): Promise<RenderedSearchPage>;
  /** Whether a worker is started (it starts at the first search and stops after `idleMs` without one). */
  hasWorker(): boolean;
  close(): Promise<void>;
}

/** The search worker alone (search-pool.ts): searches, no pages. */
export type SearchWorkerPool = Omit<SearchPool, 'renderPage'>;

/**
 * How the front server answers a /blogs request with a search:
 * - `page`: a render worker searched and rendered it;
 * - `astro`: no render worker renders search pages (the caller renders it through Astro, with this
 *   decision, so the address is not counted twice);
 * - `plain`: a refused search whose page could not be rendered either (every lane was full):
 *   the words of docs/product.md#search as plain text, with the status and Retry-After.
 */
export type SearchPageAnswer =
  | { kind: 'page'; page: RenderedSearchPage }
  | { kind: 'astro'; decision: SearchPageDecision }
  | { kind: 'plain'; status: 429 | 503; retryAfterSeconds: number; message: string };

/** What a PDF gives the search: its text (bounded), its page count, whether it could be read. */
export interface PdfTextResult {
  text: string;
  pages: number;
  ok: boolean;
}

export type PdfTextExtractor = (file: string) => Promise<PdfTextResult>;

export interface VocabularyTerm {
  term: string;
  /** How many articles hold it. */
  doc: number;
}

export interface Vocabulary {
  /** Sorted, for prefix look-ups. */
  sorted: string[];
  /** Terms by length, for the distance scan. */
  byLength: Map<number, VocabularyTerm[]>;
}

/** The vocabulary and the word index's version it was read at. */
export type IndexVocabulary = Vocabulary & { version: number };

/** What a search reads of the word index besides its matches: the vocabulary, and the index's version now. */
export interface SearchIndex {
  loadVocabulary: () => Promise<IndexVocabulary>;
  version: () => number;
}

/** View counts (content/clicks.ts): counted in memory, written in batches. */
export interface ViewCounter {
  /**
   * Counts a view of the blog by this address unless it counted one within the window. Answers
   * false, counting nothing, when the blog does not exist.
   */
  record(blogId: number, clientAddress: string, now?: number): Promise<boolean>;
  /** Writes the counted views in one transaction. */
  flush(): Promise<void>;
  /** At shutdown: no more timer, and everything counted is written. */
  stop(): Promise<void>;
}

/** A background job a write can hurry (it has work sooner than its own timer would look). */
export interface Wakeable {
  wake(): void;
}
