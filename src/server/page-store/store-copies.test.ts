import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageStore } from './store.ts';
import { BUFFER_OVERHEAD, sizeOf } from './page-memory.ts';
import { STORE_FILE_NAME } from './store-schema.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('page-store-copies-');
const html = (text: string) => Buffer.from(`<!doctype html><title>${text}</title><p>${text.repeat(300)}</p>`);

/** A closed store of `count` pages, each with its brotli copy, and the pages' bodies and copies. */
function storeInBrotli(count: number): { dir: string; bodies: Buffer[]; brs: Buffer[] } {
  const dir = tempDir();
  const writer = new PageStore({ dir, buildId: 'b1' });
  const bodies = Array.from({ length: count }, (_, i) => html(`page number ${i} `));
  const brs = bodies.map((body) => zlib.brotliCompressSync(body));
  writer.putMany(
    bodies.map((body, i) => ({
      key: `/blog/${i}`,
      input: { contentType: 'text/html', body, br: brs[i]!, tags: [`blog:${i}`] },
      renderStartedAt: writer.beginRender(),
    })),
  );
  writer.close();
  return { dir, bodies, brs };
}

describe('a page read from the file for a reader', () => {
  it('is held in the one copy that reader takes, so memory holds more pages; the others are taken when asked', () => {
    const { dir, bodies, brs } = storeInBrotli(20);
    const store = new PageStore({ dir, buildId: 'b1' });
    for (let i = 0; i < 20; i++) {
      const page = store.get(`/blog/${i}`, ['br', 'identity'])!;
      expect(page.br!.equals(brs[i]!)).toBe(true);
      expect(page.body).toBeNull();
    }
    const held = store.stats();
    expect(held.memoryPages).toBe(20);
    const pages = Array.from({ length: 20 }, (_, i) => store.get(`/blog/${i}`, ['br'])!);
    expect(held.memoryBytes).toBe(pages.reduce((sum, page) => sum + sizeOf(page), 0));
    expect(pages.every((page) => sizeOf(page) > page.br!.length + BUFFER_OVERHEAD)).toBe(true);

    // A reader who takes identity only: the body is made from the checked brotli copy and stays with the page.
    const page = store.get('/blog/3', ['identity'])!;
    expect(page.body).toBeNull();
    expect(store.copyOf(page, 'identity')!.equals(bodies[3]!)).toBe(true);
    expect(page.body!.equals(bodies[3]!)).toBe(true);
    expect(store.stats().memoryBytes).toBe(held.memoryBytes + bodies[3]!.length + BUFFER_OVERHEAD);
    // Without an order a caller gets every copy the file has.
    const whole = store.get('/blog/5')!;
    expect(whole.body.equals(bodies[5]!)).toBe(true);
    expect(whole.br!.equals(brs[5]!)).toBe(true);
    expect(whole.gzip).toBeNull();
    store.close();
  });

  it('takes the next encoding of the order the row has, else its body, else its brotli copy (the body made from it)', () => {
    const { dir, bodies, brs } = storeInBrotli(2);
    const store = new PageStore({ dir, buildId: 'b1' });
    // Kept in brotli only: a reader of gzip or of no encoding gets the brotli copy read, and the body made from it.
    const inGzip = store.get('/blog/0', ['gzip', 'identity'])!;
    expect(inGzip.gzip).toBeNull();
    expect(inGzip.body).toBeNull();
    expect(inGzip.br!.equals(brs[0]!)).toBe(true);
    expect(store.copyOf(inGzip, 'identity')!.equals(bodies[0]!)).toBe(true);
    expect(inGzip.body!.equals(bodies[0]!)).toBe(true);
    const either = store.get('/blog/1', ['gzip', 'br', 'identity'])!;
    expect(either.br!.equals(brs[1]!)).toBe(true);
    expect(either.body).toBeNull();
    // A page stored as rendered (a render a reader waited for) keeps its body until brotli comes.
    store.put('/plain', { contentType: 'text/html', body: bodies[1]!, tags: ['nav'] }, store.beginRender(), {
      keepInMemory: false,
    });
    const plain = store.get('/plain', ['gzip', 'identity'])!;
    expect(plain.body!.equals(bodies[1]!)).toBe(true);
    expect(plain.br).toBeNull();
    store.close();
  });

  it('is never answered when the copy read is damaged inside the file', () => {
    const { dir, brs } = storeInBrotli(3);
    const file = path.join(dir, STORE_FILE_NAME);
    const content = fs.readFileSync(file);
    const at = content.indexOf(brs[1]!);
    expect(at).toBeGreaterThan(100);
    const middle = at + (brs[1]!.length >> 1);
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from([content[middle]! ^ 0xff]), 0, 1, middle);
    fs.closeSync(fd);

    const lines: string[] = [];
    const store = new PageStore({ dir, buildId: 'b1', log: (line) => lines.push(line) });
    expect(store.get('/blog/1', ['br', 'identity'])).toBeUndefined();
    expect(lines.join('\n')).toMatch(/the stored br copy of \/blog\/1 does not match its checksum/);
    store.close();
  });
});
