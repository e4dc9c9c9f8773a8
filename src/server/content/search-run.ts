import type { Db } from '../db/client.ts';
import { findSummariesByIds } from '../db/repositories/blog-lists.ts';
import { findRankedIds, readIndexedText, readSnippets, type MatchPlan, type SnippetRow } from '../db/repositories/search.ts';
import { closestTerms, hasPrefix, soleWordStartingWith, type Vocabulary } from './search-fuzzy.ts';
import { parseSearchWords, planMatch, type SearchWords } from './search-plan.ts';
import { pickSnippet, scanSnippet } from './search-snippet.ts';
import type { SearchIndex } from './search-vocabulary.ts';
import type { SearchAnswer, SearchHit, SearchRequest } from '../ports.ts';

export type { SearchAnswer, SearchHit, SearchRequest } from '../ports.ts';

/** Matches counted and ranked at most; beyond it the page says "1,000+ results". */
export const RESULT_CAP = 1000;
/** Fewer exact matches than this and the misspelling search adds its own. */
const FEW_RESULTS = 3;
const SNIPPET_TOKENS = 24;

export const emptyAnswer: SearchAnswer = { total: 0, capped: false, hits: [], correctedTo: null };

/** Look-alikes for every word the index cannot even start (so it must be misspelled). */
function alternativesFor(parsed: SearchWords, vocabulary: Vocabulary): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const word of parsed.words) {
    if (hasPrefix(vocabulary, word)) continue;
    const close = closestTerms(vocabulary, word);
    if (close.length > 0) out.set(word, close);
  }
  return out;
}

/** Typed words that only one indexed word starts with, and that word. */
function soleWords(parsed: SearchWords, vocabulary: Vocabulary): Map<string, string> {
  const out = new Map<string, string>();
  for (const word of parsed.words) {
    const only = soleWordStartingWith(vocabulary, word);
    if (only !== null) out.set(word, only);
  }
  return out;
}

const NO_WORDS = new Map<string, string>();

/**
 * One search: the ranked, capped matches, then this page's articles and snippets. Runs in the
 * search worker (or in-process under `astro dev`); every read goes to the given connection.
 * A typed word that only one indexed word starts with is searched as that word, when the
 * vocabulary is of the index's version; a write to the index before the last read was done (the
 * version moved) has the search done again with the typed words, as its new words may be missing.
 */
export async function runSearch(db: Db, request: SearchRequest, index: SearchIndex): Promise<SearchAnswer> {
  const parsed = parseSearchWords(request.text);
  if (parsed.words.length === 0 && parsed.unspaced.length === 0) return emptyAnswer;
  const vocabulary = await index.loadVocabulary();
  const version = index.version();
  const sole = vocabulary.version === version ? soleWords(parsed, vocabulary) : NO_WORDS;
  const answer = await searchWith(db, request, parsed, vocabulary, sole);
  if (sole.size > 0 && index.version() !== version) return searchWith(db, request, parsed, vocabulary, NO_WORDS);
  return answer;
}

async function searchWith(
  db: Db,
  request: SearchRequest,
  parsed: SearchWords,
  vocabulary: Vocabulary,
  sole: Map<string, string>,
): Promise<SearchAnswer> {
  const exact = planMatch(parsed, request.categoryId, undefined, sole);
  const ranked = await findRankedIds(db, exact, RESULT_CAP + 1);
  const planFor = new Map<number, MatchPlan>(ranked.map((r) => [r.id, exact]));
  let correctedTo: string | null = null;
  if (ranked.length < FEW_RESULTS && parsed.words.length > 0) {
    const alternatives = alternativesFor(parsed, vocabulary);
    if (alternatives.size > 0) {
      const fuzzy = planMatch(parsed, request.categoryId, alternatives, sole);
      let added = 0;
      for (const hit of await findRankedIds(db, fuzzy, RESULT_CAP + 1)) {
        if (planFor.has(hit.id)) continue;
        planFor.set(hit.id, fuzzy);
        ranked.push(hit);
        added++;
      }
      if (added > 0) correctedTo = parsed.words.map((w) => alternatives.get(w)?.[0] ?? w).join(' ');
    }
  }
  const total = Math.min(ranked.length, RESULT_CAP);
  const capped = ranked.length > RESULT_CAP;
  const slice = (offset: number, limit: number) =>
    ranked.slice(Math.min(offset, total), Math.min(offset + limit, total)).map((r) => r.id);
  if (request.idSlice) return { total, capped, hits: [], correctedTo, ids: slice(request.idSlice.offset, request.idSlice.limit) };
  const pageIds = slice((request.page - 1) * request.pageSize, request.pageSize);
  const summaries = await findSummariesByIds(db, pageIds);
  // The exact matches and the misspelling search's are two plans: one snippet statement each.
  const snippets = new Map<number, SnippetRow>();
  for (const plan of new Set(summaries.map((blog) => planFor.get(blog.id)!))) {
    const ids = summaries.filter((blog) => planFor.get(blog.id) === plan).map((blog) => blog.id);
    for (const [id, row] of await readSnippets(db, plan, ids, SNIPPET_TOKENS)) snippets.set(id, row);
  }
  const hits: SearchHit[] = [];
  for (const blog of summaries) {
    const row = snippets.get(blog.id);
    const snippet = row ? pickSnippet(row) : scanSnippet(await readIndexedText(db, blog.id), planFor.get(blog.id)!.shortRuns);
    hits.push({ blog, snippet });
  }
  return { total, capped, hits, correctedTo };
}
