import type SQLite from 'better-sqlite3';
import type { Db } from '../db/client.ts';
import { listVocabulary, readSearchIndexVersion } from '../db/repositories/search.ts';
import type { IndexVocabulary, SearchIndex } from '../ports.ts';
import { buildVocabulary } from './search-fuzzy.ts';

export type { IndexVocabulary, SearchIndex };

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

/**
 * The search index of a connection: made once per connection and thread (by the front server,
 * the search worker or the `astro dev` context) and handed round in the app context, so the
 * searches of the server's own modules and of Astro's bundle share one vocabulary.
 */
export function createSearchIndex(db: Db, sqlite: SQLite.Database): SearchIndex {
  const version = () => readSearchIndexVersion(sqlite);
  return { loadVocabulary: createVocabularyCache(db, version), version };
}
