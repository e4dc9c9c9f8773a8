import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { CdnSettings } from '../config.ts';
import type { RefreshQueue } from '../page-store/refresh-queue.ts';
import { PageStore } from '../page-store/store.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { answerStoredHit, pickEncoding } from './page-responder.ts';

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

describe('answerStoredHit', () => {
  const tempDir = trackTempDirs('page-responder-test-');
  const cdn: CdnSettings = { tagHeaders: ['xkey'], purgeVarnish: [], maxAgeSeconds: 300 };

  /** What one request was answered: status and headers as written, or null when it was left to the slower path. */
  interface Written {
    status: number;
    headers: Record<string, string>;
  }

  function ask(store: PageStore, background: RefreshQueue | null, headers: Record<string, string> = {}): Written | null {
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
    const answered = answerStoredHit(req, res, '/blog/1', store, ['X-Content-Type-Options', 'nosniff'], null, cdn, background);
    return answered ? written : null;
  }

  it('answers a stale page at once, marked STALE for the browser and shared caches, and queues its refresh', () => {
    const store = new PageStore({ dir: tempDir(), buildId: 'b1' });
    const body = Buffer.from('<!doctype html><title>one</title>');
    store.put('/blog/1', { contentType: 'text/html', body, tags: ['blog:1'] }, store.beginRender());
    const queued: string[] = [];
    const background = { enqueue: (keys: string[]) => queued.push(...keys) } as unknown as RefreshQueue;

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
    // Without a refresh queue (or for a page of another build) it is left to the slower path.
    expect(ask(store, null)).toBeNull();
    store.close();
  });
});
