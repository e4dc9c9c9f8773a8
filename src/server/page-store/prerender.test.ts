import { describe, expect, it } from 'vitest';
import { progressPrinter } from './prerender.ts';

/** A log (not a terminal) that keeps what was written. */
function logStream(): { lines: string[]; out: NodeJS.WriteStream } {
  const lines: string[] = [];
  const out = { isTTY: false, write: (text: string) => lines.push(text.trimEnd()) > 0 } as unknown as NodeJS.WriteStream;
  return { lines, out };
}

describe('the pre-render progress lines', () => {
  it('count the whole site when one process renders it', () => {
    const { lines, out } = logStream();
    const show = progressPrinter(105, out);
    for (let done = 1; done <= 105; done += 1) show(done);
    expect(lines.at(-1)).toMatch(/^Pre-rendering: 105\/105 pages \(\d+\/s\)$/);
    expect(lines.length).toBeLessThanOrEqual(11);
  });

  it("name the process's share when several render parts of the site", () => {
    const { lines, out } = logStream();
    const show = progressPrinter(53, out, "(process 1's share of 2)");
    show(53);
    expect(lines).toEqual([expect.stringMatching(/^Pre-rendering \(process 1's share of 2\): 53\/53 pages \(\d+\/s\)$/)]);
  });
});
