import type { Db } from '../db/client.ts';
import { listVocabulary } from '../db/repositories/search.ts';
import { buildVocabulary, type Vocabulary } from './search-fuzzy.ts';

/**
 * The vocabulary, read once and kept: reading it walks the whole index. It is read again when it
 * is older than `maxAgeMs` and the database changed meanwhile, so a new article's words can be
 * found misspelled within that time (found correctly spelled at once).
 */
export function createVocabularyCache(db: Db, dataVersion: () => number, maxAgeMs = 30_000, now = Date.now) {
  let cached: { vocabulary: Vocabulary; at: number; version: number } | null = null;
  let loading: Promise<Vocabulary> | null = null;
  return function loadVocabulary(): Promise<Vocabulary> {
    if (cached && (now() - cached.at < maxAgeMs || dataVersion() === cached.version)) return Promise.resolve(cached.vocabulary);
    loading ??= (async () => {
      const version = dataVersion();
      const vocabulary = buildVocabulary(await listVocabulary(db));
      cached = { vocabulary, at: now(), version };
      return vocabulary;
    })().finally(() => (loading = null));
    return loading;
  };
}
