import { afterEach, describe, expect, it, vi } from 'vitest';
import { byteBoundPlugin, chooseEvictions, RECENT_INDEX } from './sw-lru.js';

describe('chooseEvictions (the read-lately cache bound)', () => {
  it('drops nothing within the bound', () => {
    expect(chooseEvictions({ '/a': { size: 40, at: 1 }, '/b': { size: 60, at: 2 } }, 100)).toEqual([]);
  });

  it('drops the least recently used first, only as many as needed', () => {
    const index = { '/new': { size: 50, at: 30 }, '/old': { size: 50, at: 10 }, '/mid': { size: 50, at: 20 } };
    expect(chooseEvictions(index, 100)).toEqual(['/old']);
    expect(chooseEvictions(index, 60)).toEqual(['/old', '/mid']);
  });

  it('drops an entry larger than the whole bound', () => {
    expect(chooseEvictions({ '/huge': { size: 500, at: 99 } }, 100)).toEqual(['/huge']);
  });
});

describe('byteBoundPlugin (the bound as a Workbox plugin)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('keeps the cache within its bytes, dropping what was used longest ago; a read counts as a use', async () => {
    // The Cache API as far as the plugin uses it, keyed by URL (Workbox has already stored each entry).
    const entries = new Map<string, Response>();
    const cache = {
      match: async (key: string) => entries.get(key)?.clone(),
      put: async (key: string, response: Response) => void entries.set(key, response),
      delete: async (key: string) => entries.delete(key),
    };
    vi.stubGlobal('caches', { open: async () => cache });
    let now = 1000;
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 1));
    const plugin = byteBoundPlugin('recent-pages', 100);
    const store = async (url: string, bytes: number) => {
      entries.set(url, new Response('x'.repeat(bytes)));
      await plugin.cacheDidUpdate({ request: new Request(url), newResponse: new Response('x'.repeat(bytes)) });
    };

    await store('https://site.test/a', 40);
    await store('https://site.test/b', 40);
    // /a read offline: /b becomes the least recently used.
    const read = new Response('a');
    expect(await plugin.cachedResponseWillBeUsed({ request: new Request('https://site.test/a'), cachedResponse: read })).toBe(
      read,
    );
    await store('https://site.test/c', 40);

    expect([...entries.keys()].filter((key) => key !== RECENT_INDEX).sort()).toEqual([
      'https://site.test/a',
      'https://site.test/c',
    ]);
    expect(Object.keys(await entries.get(RECENT_INDEX)!.json()).sort()).toEqual(['https://site.test/a', 'https://site.test/c']);
  });
});
