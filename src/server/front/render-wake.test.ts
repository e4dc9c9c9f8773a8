import { describe, expect, it, vi } from 'vitest';
import { changeMayFollow, restRenderersSoonEverywhere, wakeRenderersEverywhere } from './render-wake.ts';

function fakeSiblings() {
  const told: string[] = [];
  const handlers = new Map<string, (payload: unknown, from: number) => void>();
  return {
    told,
    hear: (topic: string) => handlers.get(topic)?.(null, 1),
    listen: (topic: string, handler: (payload: unknown, from: number) => void) => void handlers.set(topic, handler),
    tell: (topic: string) => void told.push(topic),
  };
}

describe('wakeRenderersEverywhere', () => {
  it("wakes this process's workers on every call and tells the siblings at most twice per rest period", () => {
    vi.useFakeTimers();
    try {
      const pool = { wake: vi.fn() };
      const siblings = fakeSiblings();
      const wake = wakeRenderersEverywhere(pool, siblings, 60);
      wake();
      wake();
      expect(pool.wake).toHaveBeenCalledTimes(2);
      expect(siblings.told).toEqual(['render-wake']);
      vi.advanceTimersByTime(29_000);
      wake();
      expect(siblings.told).toHaveLength(1);
      vi.advanceTimersByTime(1_000);
      wake();
      expect(siblings.told).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("starts this process's workers when a sibling says an admin is at work", () => {
    const pool = { wake: vi.fn() };
    const siblings = fakeSiblings();
    wakeRenderersEverywhere(pool, siblings, 60);
    siblings.hear('render-wake');
    expect(pool.wake).toHaveBeenCalledTimes(1);
  });

  it('does nothing when the workers never rest, and tells no one when the process serves alone', () => {
    const pool = { wake: vi.fn() };
    const siblings = fakeSiblings();
    wakeRenderersEverywhere(pool, siblings, 0)();
    expect([pool.wake.mock.calls.length, siblings.told.length]).toEqual([0, 0]);
    wakeRenderersEverywhere(pool, null, 60)();
    expect(pool.wake).toHaveBeenCalledTimes(1);
  });
});

describe('changeMayFollow', () => {
  it('holds for writes and the admin at work, not for a view counted or a reader reading', () => {
    const may = [
      ['PUT', '/api/blogs/12'],
      ['POST', '/api/blogs/12/comment'],
      ['POST', '/api/categories'],
      ['DELETE', '/api/blogs/12'],
      ['GET', '/admin'],
      ['GET', '/admin/blogs-manage'],
      // The article form with unsaved changes asks it every 20 s, to keep the workers up.
      ['GET', '/api/admin/page-refresh'],
      ['GET', '/login'],
      ['GET', '/setup'],
    ];
    const mayNot = [
      // Every article page a browser opens sends it.
      ['PUT', '/api/blogs/12/click'],
      ['PUT', '/api/blogs/12/click/'],
      ['GET', '/api/blogs/top-viewed'],
      ['GET', '/api/blogs?limit=5'],
      ['HEAD', '/account'],
      ['GET', '/library'],
      ['GET', '/administrator'],
    ];
    for (const [method, pathname] of may) expect(changeMayFollow(method!, pathname!), `${method} ${pathname}`).toBe(true);
    for (const [method, pathname] of mayNot) expect(changeMayFollow(method!, pathname!), `${method} ${pathname}`).toBe(false);
  });
});

describe('restRenderersSoonEverywhere', () => {
  it("asks this process's workers and tells the siblings, who ask theirs", () => {
    const pool = { restSoon: vi.fn() };
    const siblings = fakeSiblings();
    const restSoon = restRenderersSoonEverywhere(pool, siblings, 2000);
    restSoon();
    expect(pool.restSoon).toHaveBeenCalledWith(2000);
    expect(siblings.told).toEqual(['render-rest-soon']);

    const sibling = { restSoon: vi.fn() };
    const theirChannel = fakeSiblings();
    restRenderersSoonEverywhere(sibling, theirChannel, 2000);
    theirChannel.hear('render-rest-soon');
    expect(sibling.restSoon).toHaveBeenCalledWith(2000);
    expect(theirChannel.told).toEqual([]);
  });

  it('asks only its own workers when the process serves alone', () => {
    const pool = { restSoon: vi.fn() };
    restRenderersSoonEverywhere(pool, null, 2000)();
    expect(pool.restSoon).toHaveBeenCalledTimes(1);
  });
});
