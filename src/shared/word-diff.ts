import { diffWordsWithSpace } from 'diff';

/**
 * A word-level diff for the revision view, by jsdiff (Myers' algorithm over words, whitespace
 * kept as its own tokens, so the text reads back exactly): runs of kept, removed and added text.
 * Past MAX_EDITS changed tokens the middle (what lies between the shared start and end) is shown
 * as removed then added whole, which is still correct, only coarser, and bounds the work.
 */

export type DiffPart = { kind: 'same' | 'removed' | 'added'; text: string };

const MAX_EDITS = 400;

export function tokenize(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

/**
 * Where two token lists stop sharing their opening (`start`) and their ending (`endA`, `endB`):
 * what lies between is all that differs.
 */
export function commonEnds(a: readonly string[], b: readonly string[]): { start: number; endA: number; endB: number } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { start, endA, endB };
}

export function diffWords(before: string, after: string): DiffPart[] {
  const parts: DiffPart[] = [];
  const changes = diffWordsWithSpace(before, after, { maxEditLength: MAX_EDITS });
  if (changes) {
    for (const change of changes) push(parts, change.added ? 'added' : change.removed ? 'removed' : 'same', change.value);
    return parts;
  }
  const a = tokenize(before);
  const b = tokenize(after);
  const { start, endA, endB } = commonEnds(a, b);
  push(parts, 'same', a.slice(0, start).join(''));
  push(parts, 'removed', a.slice(start, endA).join(''));
  push(parts, 'added', b.slice(start, endB).join(''));
  push(parts, 'same', a.slice(endA).join(''));
  return parts;
}

/** Appends text, joining it onto the last part when it is of the same kind. */
function push(parts: DiffPart[], kind: DiffPart['kind'], text: string): void {
  if (text === '') return;
  const last = parts[parts.length - 1];
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/** Whether anything changed. */
export const hasChanges = (parts: DiffPart[]) => parts.some((part) => part.kind !== 'same');
