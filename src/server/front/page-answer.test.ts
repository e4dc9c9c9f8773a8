import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { CdnSettings } from '../config.ts';
import type { RefreshQueue } from '../page-store/refresh-queue.ts';
import zlib from 'node:zlib';
import type { PageRenderer } from '../page-store/renderer.ts';
import { PageStore, type StoredPage } from '../page-store/store.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { pickEncoding } from './encodings.ts';
import { planPageAnswer, sendPlanned, servedCountsIn, type PagePlan } from './page-answer.ts';
import { SiteMetrics } from '../metrics/registry.ts';

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, honouring q=0', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0.5')).toBe('br');
    expect(pickEncoding(undefined)).toBe('identity');
    expect(pickEncoding('identity')).toBe('identity');
    expect(pickEncoding('gzip;q=0')).toBe('identity');
  });
});

describe('planPageAnswer', () => {
  const tempDir = trackTempDirs('page-answer-test-');
  const cdn: CdnSettings = { tagHeaders: ['xkey'], purgeVarnish: [], maxAgeSeconds: 300, purgeSecret: null, purgeWaitMs: 0 };

  /** What one request was answered: status and headers as written, or null when the reader waits (an encoding or a render). */
  interface Written {
    status: number;
    headers: Record<string, string>;
  }

  /** A renderer's side as the fast path sees it: the refresh queue and the encodings asked for. */
  function fakeRenderer(queued: string[], encodings: string[] = [], encodingsUnderWay = 0): PageRenderer {
    return {
      encodingsUnderWay,
      background: { enqueue: (keys: string[]) => queued.push(...keys) } as unknown as RefreshQueue,
      encodeLater: (page: StoredPage, encoding: string) => encodings.push(`${page.key} ${encoding}`),
      wantEncoding: (page: StoredPage, encoding: string) => encodings.push(`${page.key} ${encoding} with its refresh`),
    } as unknown as PageRenderer;
  }

  function ask(
    store: PageStore,
    renderer: PageRenderer,
    headers: Record<string, string> = {},
    pagePolicy: string | null = null,
  ): Written | null {
    const written: Written = { status: 0, headers: {} };
    const req = { method: 'GET', headers } as unknown as IncomingMessage;
    const res = {
      writeHead(status: number, list: string[]) {
        const named: Record<string, string> = {};
        for (let i = 0; i < list.length; i += 2) named[list[i]!.toLowerCase()] = list[i + 1]!;
        written.status = status;
        written.headers = named;
      },
      end() {},
    } as unknown as ServerResponse;
    const common = ['Content-Security-Policy', "default-src 'none'", 'X-Content-Type-Options', 'nosniff'];
    const plan: PagePlan = planPageAnswer(req, '/blog/1', { store, renderer });
    if (plan.kind !== 'send') return null;
    sendPlanned(req, res, plan, pagePolicy, { common, cdn, served: servedCountsIn(new SiteMetrics()) }, store);
    return written;
  }

  it('answers an HTML page with the policy stored with it, read back from the file, narrowing nothing per request', () => {
    const dir = tempDir();
    const build = "script-src 'self' 'sha256-AAAA' 'sha256-BBBB'; style-src 'self'";
    // What the render worker made: the build's policy narrowed to the page's one inline script.
    const stored = "script-src 'self' 'sha256-BBBB'; style-src 'self'";
    const writer = new PageStore({ dir, buildId: 'b1' });
    const body = Buffer.from('<!doctype html><html><script>not the hashed one</script></html>');
    writer.put('/blog/1', { contentType: 'text/html', body, tags: ['blog:1'], policy: stored }, writer.beginRender());
    writer.close();
    const store = new PageStore({ dir, buildId: 'b1' });
    const answer = ask(store, fakeRenderer([]), {}, build)!;
    expect(answer.headers['content-security-policy']).toBe(stored);
    store.close();
  });

  it('narrows the policy of an HTML page stored without one, and leaves other pages the common policy', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const build = "script-src 'self' 'sha256-AAAA'";
    store.put('/blog/1', { contentType: 'text/html', body: Buffer.from('<html></html>'), tags: ['blog:1'] }, store.beginRender());
    expect(ask(store, fakeRenderer([]), {}, build)!.headers['content-security-policy']).toBe("script-src 'self'");
    store.put('/blog/1', { contentType: 'application/xml', body: Buffer.from('<rss/>'), tags: ['blog:1'] }, store.beginRender());
    expect(ask(store, fakeRenderer([]), {}, build)!.headers['content-security-policy']).toBe("default-src 'none'");
    store.close();
  });

  it('answers a stale page at once, marked STALE for the browser and shared caches, and queues its refresh', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const body = Buffer.from('<!doctype html><title>one</title>');
    store.put('/blog/1', { contentType: 'text/html', body, tags: ['blog:1'] }, store.beginRender());
    const queued: string[] = [];
    const background = fakeRenderer(queued);

    expect(ask(store, background)?.headers['x-page-store']).toBe('HIT');
    const fresh = ask(store, background)!;
    expect(fresh.headers['cache-control']).toContain('s-maxage=300');
    expect(queued).toEqual([]);
    store.invalidate(['blog:1']);
    const stale = ask(store, background)!;
    expect(stale.status).toBe(200);
    expect(stale.headers).toEqual({
      ...fresh.headers,
      'x-page-store': 'STALE',
      // A shared cache keeps a stale page for seconds, not for the configured max age.
      'cache-control': 'public, max-age=0, must-revalidate, s-maxage=2, stale-while-revalidate=86400',
    });
    expect(queued).toEqual(['/blog/1']);
    expect(ask(store, background, { 'if-none-match': fresh.headers.etag! })?.status).toBe(304);
    // Without a refresh queue (or for a page of another build) the reader waits for its render.
    const noQueue = { ...background, background: null } as unknown as PageRenderer;
    expect(ask(store, noQueue)).toBeNull();
    store.close();
  });

  it('has a stale page that shows content taken down since rendered while its reader waits', async () => {
    const dir = tempDir();
    const store = new PageStore({ dir, buildId: 'b1' });
    const body = Buffer.from('<!doctype html><title>one</title>');
    store.put('/blog/1', { contentType: 'text/html', body, tags: ['blog:1', 'comments:1'] }, store.beginRender());
    const queued: string[] = [];
    expect(ask(store, fakeRenderer(queued))?.headers['x-page-store']).toBe('HIT');
    // Another serving process takes a comment down: once its change answers, the very next look at the page sees it.
    const other = new PageStore({ dir, buildId: 'b1' });
    other.invalidate([], ['comments:1']);
    await other.seenEverywhere();
    expect(ask(store, fakeRenderer(queued))).toBeNull();
    expect(ask(store, fakeRenderer(queued), { 'if-none-match': `W/${store.get('/blog/1')!.etag}` })).toBeNull();
    expect(queued).toEqual([]);
    other.close();
    store.close();
  });

  it("answers a page not yet in the reader's best encoding in one it has, kept from shared caches, while a worker makes it", () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const body = Buffer.from('<!doctype html><title>one</title>'.repeat(20));
    const page = store.put('/blog/1', { contentType: 'text/html', body, tags: ['blog:1'] }, store.beginRender())!;
    const asked: string[] = [];
    // With few encodings under way, the reader waits for its own.
    expect(ask(store, fakeRenderer([], asked), { 'accept-encoding': 'br, gzip' })).toBeNull();
    expect(asked).toEqual([]);
    // With many under way, it gets the page as it is at once.
    const renderer = fakeRenderer([], asked, 4);

    const first = ask(store, renderer, { 'accept-encoding': 'br, gzip' })!;
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers['content-length']).toBe(String(body.length));
    // No s-maxage and no tags: a shared cache does not keep it as the brotli answer.
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(first.headers.xkey).toBeUndefined();
    expect(asked).toEqual(['/blog/1 br']);
    // A reader who takes identity only asks for nothing.
    expect(ask(store, renderer, { 'accept-encoding': 'identity' })!.headers['cache-control']).toContain('s-maxage=300');
    expect(asked).toEqual(['/blog/1 br']);

    // Once made, the next reader gets it, cacheable.
    store.keepEncoding(page, 'br', zlib.brotliCompressSync(body));
    const next = ask(store, renderer, { 'accept-encoding': 'br, gzip' })!;
    expect(next.headers['content-encoding']).toBe('br');
    expect(next.headers['cache-control']).toContain('s-maxage=300');
    expect(next.headers.xkey).toContain('blog:1');
    // gzip only: the page has none yet, so identity, and gzip is asked for.
    expect(ask(store, renderer, { 'accept-encoding': 'gzip' })!.headers['content-encoding']).toBeUndefined();
    expect(asked).toEqual(['/blog/1 br', '/blog/1 gzip']);

    // A stale page is answered at once whatever is under way: its refresh makes the encoding.
    store.invalidate(['blog:1']);
    const waiting = fakeRenderer([], asked);
    const stale = ask(store, waiting, { 'accept-encoding': 'gzip' })!;
    expect(stale.headers['x-page-store']).toBe('STALE');
    expect(stale.headers['content-encoding']).toBeUndefined();
    expect(asked.at(-1)).toBe('/blog/1 gzip with its refresh');
    store.close();
  });
  it('answers a page read from the file in brotli to a reader of another encoding from the same stored version', () => {
    const dir = tempDir();
    const body = Buffer.from('<!doctype html><title>one</title>'.repeat(40));
    const br = zlib.brotliCompressSync(body);
    const writer = new PageStore({ dir, buildId: 'b1' });
    writer.put('/blog/1', { contentType: 'text/html', body, br, tags: ['blog:1'] }, writer.beginRender());
    writer.close();
    const store = new PageStore({ dir, buildId: 'b1' });
    const renderer = fakeRenderer([]);
    const inBrotli = ask(store, renderer, { 'accept-encoding': 'br' })!;
    expect(inBrotli.headers['content-encoding']).toBe('br');
    expect(inBrotli.headers['content-length']).toBe(String(br.length));
    expect(store.get('/blog/1', ['br', 'identity'])!.body).toBeNull();
    const plain = ask(store, renderer, { 'accept-encoding': 'identity' })!;
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(body.length));
    expect(plain.headers.etag).toBe(inBrotli.headers.etag);
    store.close();
  });
});
