import { afterEach, describe, expect, it, vi } from 'vitest';
import { highlightCode } from './render-code.ts';

const PYTHON = 'def average(marks):\n    return sum(marks) / len(marks)\n';

describe('highlightCode', () => {
  afterEach(() => vi.restoreAllMocks());

  it('colours a block the same however slowly the machine runs (no wall-clock limit per line)', async () => {
    const calm = await highlightCode(PYTHON, 'python');
    expect(calm).toContain('average');
    // A starved worker: every look at the clock finds a second gone.
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    const starved = await highlightCode(PYTHON, 'python');
    expect(starved).toBe(calm);
  });

  it('leaves a line too long to tokenize cheaply plain, by its length alone', async () => {
    const short = await highlightCode('x = "abc"', 'python');
    const long = await highlightCode(`x = "${'a'.repeat(6000)}"`, 'python');
    // The short line's string has a colour of its own; the long line is one plain token.
    const stringColour = /style="color:(#[0-9A-F]{6});[^"]*">\s*"abc"/.exec(short)?.[1];
    expect(stringColour).toBeDefined();
    expect(long).toContain('a'.repeat(6000));
    expect(long).not.toContain(stringColour!);
  });
});
