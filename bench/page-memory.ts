// What the page memory counts against what its pages really take of the serving process's heap.
//
//   npm run bench:page-memory  [BENCH_PAGES=4000]
//
// Pages shaped like the site's article pages (a 12 KB body, its brotli copy, nine tags, a narrowed
// Content-Security-Policy) are written to a store's file by one PageStore, then read back in brotli
// by a second one, as a serving process reads them for its readers, each answered once (its header
// list made, as page-headers.ts keeps it). The heap and the ArrayBuffers are measured after a full
// garbage collection before and after; the figure that matters is measured / counted, which should
// be near 1 for PAGE_MEMORY_MB to mean what it says.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { PageStore } from '../src/server/page-store/store.ts';
import { storedPageHeaders, NO_SHARED_CACHE } from '../src/server/front/page-headers.ts';
import { securityHeaderList } from '../src/server/front/security-headers.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const PAGES = Number(process.env.BENCH_PAGES ?? 4000);

const WORDS =
  'force mass energy atom cell wave field charge velocity ratio series matrix vector proof lemma reaction acid base salt'.split(
    ' ',
  );
function articleHtml(i: number): Buffer {
  let seed = i * 7919 + 1;
  const word = () => WORDS[(seed = (seed * 48271) % 2147483647) % WORDS.length]!;
  const paragraphs: string[] = [];
  for (let p = 0; p < 24; p++) paragraphs.push(`<p>${Array.from({ length: 70 }, word).join(' ')}.</p>`);
  return Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Article ${i}</title>` +
      `<link rel="stylesheet" href="/_astro/site.Bx81kQ2a.css"></head><body><header><nav>` +
      `<a href="/">Home</a><a href="/blogs">Articles</a></nav></header><main><h1>Article ${i}</h1>` +
      `${paragraphs.join('')}</main><script type="module" src="/_astro/page.C2f9aQ.js"></script></body></html>`,
  );
}
const POLICY =
  "default-src 'self'; script-src 'self' 'sha256-4WhhYy7hZ8sL0vq0vUoqJ6sd3kZcNwG3zqH3kHkB0aE='; " +
  "style-src 'self' 'sha256-bS3ZT7m3h5oV4t7u6Gfj6l7f2ql0xEJjA3xq1p5lE0k=' 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='; " +
  "img-src 'self' data: https://res.cloudinary.com https://i.ytimg.com; frame-src https://www.youtube-nocookie.com; " +
  "font-src 'self'; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

function measure(): number {
  for (let i = 0; i < 3; i++) gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-page-memory-'));
try {
  const writer = new PageStore({ dir, buildId: 'bench', memoryBytes: 1024 * 1024 });
  const keys: string[] = [];
  for (let start = 0; start < PAGES; start += 200) {
    const entries = [];
    for (let i = start; i < Math.min(PAGES, start + 200); i++) {
      const body = articleHtml(i);
      const key = `/blog/${i + 1}`;
      keys.push(key);
      const tags = [
        `blog:${i + 1}`,
        `comments:${i + 1}`,
        `category:${(i % 12) + 1}`,
        'nav',
        'settings',
        'carousel',
        'info-pages',
        'top-viewed',
        'related',
      ];
      entries.push({
        key,
        input: { contentType: 'text/html; charset=utf-8', body, tags, br: zlib.brotliCompressSync(body), policy: POLICY },
        renderStartedAt: writer.beginRender(),
      });
    }
    writer.putMany(entries);
  }
  writer.close();

  // The reader: memory large enough for every page, so none leaves it while measured.
  const reader = new PageStore({ dir, buildId: 'bench', memoryBytes: 4096 * 1024 * 1024 });
  const common = securityHeaderList(false);
  const before = measure();
  for (const key of keys) {
    const page = reader.get(key, ['br'])!;
    storedPageHeaders(page, 'HIT', 'br', 'shared', common, page.policy ?? null, NO_SHARED_CACHE);
  }
  const after = measure();
  const counted = reader.stats().memoryBytes;
  const measured = after - before;
  const copies = keys.reduce((sum, key) => sum + (reader.get(key, ['br'])!.br?.length ?? 0), 0);
  const perPage = (bytes: number) => `${(bytes / keys.length).toFixed(0)} B`;
  console.log(`Page memory, ${keys.length} article pages read in brotli (their copies ${perPage(copies)} a page):`);
  console.log(`  counted by PAGE_MEMORY_MB: ${(counted / 1048576).toFixed(1)} MiB (${perPage(counted)} a page)`);
  console.log(`  measured (heap + ArrayBuffers): ${(measured / 1048576).toFixed(1)} MiB (${perPage(measured)} a page)`);
  console.log(`  measured / counted: ${(measured / counted).toFixed(2)} (target: 0.8-1.2)`);
  reader.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
