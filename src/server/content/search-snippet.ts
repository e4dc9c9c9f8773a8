import type { SnippetRow } from '../db/repositories/search.ts';

import type { MatchPlace, Snippet } from '../ports.ts';

/** Where a result matched (MatchPlace), in the order the card names them, and the snippet's shape. */
export type { MatchPlace, Snippet } from '../ports.ts';

const OPEN = '\u0002';
const CLOSE = '\u0003';
const MARKERS = new RegExp(`[${OPEN}${CLOSE}]`, 'g');
const SCAN_CONTEXT = 60;

/** The snippet to show: the text's, else the PDF's, else the opening of the text. */
export function pickSnippet(row: SnippetRow): Snippet {
  const where: MatchPlace[] = [];
  if (row.title.includes(OPEN)) where.push('title');
  if (row.body.includes(OPEN)) where.push('text');
  if (row.pdf.includes(OPEN)) where.push('pdf');
  const text = where.includes('text') ? row.body : where.includes('pdf') ? row.pdf : row.body;
  return { text, where };
}

/** A snippet found by looking for the words in the text (words too short for the index). */
export function scanSnippet(row: SnippetRow | undefined, runs: string[]): Snippet {
  if (!row || runs.length === 0) return { text: '', where: [] };
  const columns: [MatchPlace, string][] = [
    ['title', row.title],
    ['text', row.body],
    ['pdf', row.pdf],
  ];
  const where = columns.filter(([, text]) => runs.some((run) => text.includes(run))).map(([place]) => place);
  const [, source] = columns.find(([place]) => place === (where.find((p) => p !== 'title') ?? 'text'))!;
  const at = Math.max(0, Math.min(...runs.map((run) => source.indexOf(run)).filter((i) => i >= 0), source.length) - SCAN_CONTEXT);
  let text = source.slice(at, at + SCAN_CONTEXT * 3);
  for (const run of runs) text = text.split(run).join(`${OPEN}${run}${CLOSE}`);
  return { text: `${at > 0 ? '…' : ''}${text}${at + SCAN_CONTEXT * 3 < source.length ? '…' : ''}`, where };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The snippet as HTML: everything escaped first, then the markers (which escaping leaves alone and
 * the index never holds) become <mark>. Content can never bring its own markup.
 */
export function snippetHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
  let open = false;
  const marked = escaped.replace(MARKERS, (marker) => {
    if (marker === OPEN && !open) {
      open = true;
      return '<mark>';
    }
    if (marker === CLOSE && open) {
      open = false;
      return '</mark>';
    }
    return '';
  });
  return open ? `${marked}</mark>` : marked;
}

const PLACE_NAMES: Record<MatchPlace, string> = { title: 'title', text: 'text', pdf: 'attached PDF' };

/** "Matched in the title and the text", for the result card. */
export function describeMatchPlaces(where: MatchPlace[]): string {
  if (where.length === 0) return '';
  const names = where.map((place) => `the ${PLACE_NAMES[place]}`);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Matched in ${list}`;
}
