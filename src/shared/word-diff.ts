/**
 * A word-level diff for the revision view: the longest common subsequence of words (whitespace
 * kept as its own tokens, so the text reads back exactly), then runs of kept, removed and added
 * text. Shared prefix and suffix are taken off first; a middle too large for the table
 * (MAX_CELLS) is shown as removed then added whole, which is still correct, only coarser.
 */

export type DiffPart = { kind: 'same' | 'removed' | 'added'; text: string };

const MAX_CELLS = 4_000_000;

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
  const a = tokenize(before);
  const b = tokenize(after);
  const { start, endA, endB } = commonEnds(a, b);
  const parts: DiffPart[] = [];
  push(parts, 'same', a.slice(0, start));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) {
    push(parts, 'removed', midA);
    push(parts, 'added', midB);
  } else {
    for (const [kind, token] of lcsWalk(midA, midB)) push(parts, kind, [token]);
  }
  push(parts, 'same', a.slice(endA));
  return parts;
}

/** The edit script of two token lists from their LCS table, in reading order. */
function lcsWalk(a: string[], b: string[]): Array<[DiffPart['kind'], string]> {
  const width = b.length + 1;
  // lengths[i * width + j]: LCS length of a[i..] and b[j..].
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const steps: Array<[DiffPart['kind'], string]> = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      steps.push(['same', a[i]!]);
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      steps.push(['removed', a[i++]!]);
    } else {
      steps.push(['added', b[j++]!]);
    }
  }
  while (i < a.length) steps.push(['removed', a[i++]!]);
  while (j < b.length) steps.push(['added', b[j++]!]);
  return steps;
}

/** Appends tokens, joining them onto the last part when it is of the same kind. */
function push(parts: DiffPart[], kind: DiffPart['kind'], tokens: string[]): void {
  if (tokens.length === 0) return;
  const last = parts[parts.length - 1];
  if (last?.kind === kind) last.text += tokens.join('');
  else parts.push({ kind, text: tokens.join('') });
}

/** Whether anything changed. */
export const hasChanges = (parts: DiffPart[]) => parts.some((part) => part.kind !== 'same');
