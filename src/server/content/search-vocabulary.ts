import type SQLite from 'better-sqlite3';
import type { Db } from '../db/client.ts';
import { listVocabulary, readSearchIndexVersion } from '../db/repositories/search.ts';
import { buildVocabulary, type Vocabulary } from './search-fuzzy.ts';

/** The vocabulary and the word index's version it was read at. */
export type IndexVocabulary = Vocabulary & { version: number };

/** What a search reads of the word index besides its matches: the vocabulary, and the index's version now. */
export interface SearchIndex {
  loadVocabulary: () => Promise<IndexVocabulary>;
  version: () => number;
}

/**
 * The vocabulary, read once and kept: reading it walks the whole index. It is read again when it
 * is older than `maxAgeMs` and the index changed meanwhile, so a new article's words can be found
 * misspelled within that time (found correctly spelled at once: a search only takes a typed word
 * for the one indexed word it starts with when the vocabulary is of the index's current version).
 */
export function createVocabularyCache(db: Db, indexVersion: () => number, maxAgeMs = 10_000, now = Date.now) {
  let cached: { vocabulary: IndexVocabulary; at: number } | null = null;
  let loading: Promise<IndexVocabulary> | null = null;
  return function loadVocabulary(): Promise<IndexVocabulary> {
    if (cached && (now() - cached.at < maxAgeMs || indexVersion() === cached.vocabulary.version))
      return Promise.resolve(cached.vocabulary);
    loading ??= (async () => {
      // The version first: a write after it makes this copy look older than it is, never newer.
      const version = indexVersion();
      const vocabulary = { ...buildVocabulary(await listVocabulary(db)), version };
      cached = { vocabulary, at: now() };
      return vocabulary;
    })().finally(() => (loading = null));
    return loading;
  };
}

const KEY = Symbol.for('study-site.search-index');
type Holder = { [KEY]?: WeakMap<Db, SearchIndex> };

/**
 * The search index of a connection, one per connection for the thread: the server's own modules
 * and Astro's bundle each load this file, and the search worker searches through both (the API's
 * searches and the pages'), so the one copy lives on globalThis.
 */
export function searchIndexOf(db: Db, sqlite: SQLite.Database): SearchIndex {
  const holder = globalThis as Holder;
  const indexes = (holder[KEY] ??= new WeakMap());
  let index = indexes.get(db);
  if (!index) {
    const version = () => readSearchIndexVersion(sqlite);
    index = { loadVocabulary: createVocabularyCache(db, version), version };
    indexes.set(db, index);
  }
  return index;
}
