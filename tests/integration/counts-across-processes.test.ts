import crypto from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { onFreshConnection as fresh, type FreshAnswer as Seen } from './http-support.ts';

/**
 * What a server with several processes (WEB_PROCESSES=2, node:cluster on one port) counts:
 * views once per reader whichever process takes the click, metrics summed over the processes
 * whichever answers the scrape, and a 404 per unknown address from the one stored 404 page.
 * Every request goes on a connection of its own, so the cluster hands them to both processes.
 */

/** `count` requests, `parallel` at a time. */
async function many(count: number, parallel: number, send: (i: number) => Promise<Seen>): Promise<Seen[]> {
  const seen: Seen[] = [];
  for (let start = 0; start < count; start += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - start) }, (_, j) => send(start + j));
    seen.push(...(await Promise.all(batch)));
  }
  return seen;
}

const processesOf = (seen: Seen[]) => new Set(seen.map((s) => s.process));

describe('WEB_PROCESSES=2: metrics and the 404 page', () => {
  let server: TestServer;
  let metricsOrigin: string;

  beforeAll(async () => {
    server = await startServer({
      env: { WEB_PROCESSES: '2', METRICS_ADDRESS: '127.0.0.1:0', TOP_VIEWED_REFRESH_SECONDS: '3600' },
    });
    await untilPrerendered(server);
    metricsOrigin = /Metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(server.output())![1]!;
  });

  afterAll(async () => {
    await server?.stop();
  });

  /** Every page answered so far, by any state, as one scrape reports it. */
  async function pagesServed(): Promise<number> {
    const response = await fetch(`${metricsOrigin}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    return [...text.matchAll(/^site_pages_served_total\{state="[a-z]+"\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  }

  it('answers every scrape with the sum over both processes, so a counter never goes backwards', async () => {
    const before = await pagesServed();
    const answers = await many(60, 6, () => fresh(server.origin, '/about'));
    for (const answer of answers) expect(answer.status).toBe(200);
    // Both processes served some of them: a scrape of either one alone would miss the other's.
    expect(processesOf(answers).size).toBe(2);
    for (let scrape = 0; scrape < 6; scrape++) expect(await pagesServed()).toBe(before + 60);
  });

  it('answers unknown addresses with the stored 404 page, and the store does not grow with them', async () => {
    const pagesFile = path.join(server.dir, 'pages', 'pages.sqlite');
    const storedPages = () => {
      const db = new SQLite(pagesFile, { readonly: true });
      try {
        return db.prepare('select count(*) from pages').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    // The pre-render stored it with its 404, and counted nothing as failed.
    expect(server.output()).toMatch(/Pre-rendered \d+ pages in [\d.]+ s \(\d+ pages\/s\) by 2 processes\n/);
    const first = await fresh(server.origin, '/nope/first');
    expect([first.status, first.state]).toEqual([404, 'HIT']);
    const before = storedPages();
    const answers = await many(1000, 20, () => fresh(server.origin, `/nope/${crypto.randomBytes(8).toString('hex')}`));
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.state).toMatch(/^(HIT|STALE)$/);
      expect(answer.body).toContain('Page Not Found');
      expect(answer.body).toMatch(/<a class="button" href="\/">Go Back Home<\/a>/);
    }
    expect(processesOf(answers).size).toBe(2);
    const head = await fresh(server.origin, '/no-such-page?x=1', { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([404, '']);
    expect(storedPages()).toBe(before);
  });
});

describe('WEB_PROCESSES=2: set-up warnings', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { WEB_PROCESSES: '2', SEED_DEMO: 'false', TOP_VIEWED_REFRESH_SECONDS: '3600' } });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('print the X-Forwarded-For warning once for the site, however many processes meet the header', async () => {
    const login = (i: number) =>
      fresh(server.origin, '/api/users/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `192.0.2.${i % 250}` },
        body: '{}',
      });
    // Until both processes have answered a request that carried the header.
    const answered = new Set<string | null>();
    await until(
      async () => {
        for (const answer of await many(6, 6, login)) {
          expect(answer.status).toBe(400);
          answered.add(answer.process);
        }
        return answered.size;
      },
      (size) => size === 2,
      'both processes to meet the header',
    );
    const warnings = () => server.output().match(/X-Forwarded-For but TRUST_PROXY is off/g)?.length ?? 0;
    await until(
      async () => warnings(),
      (count) => count > 0,
      'the warning',
    );
    expect(warnings()).toBe(1);
  });
});

describe('WEB_PROCESSES=2: a flood of unknown addresses', () => {
  it('waits its turn past RATE_LIMIT_NOT_FOUND_PER_SECOND while readers are answered, and every one gets the 404 page', async () => {
    const server = await startServer({
      env: { WEB_PROCESSES: '2', METRICS_ADDRESS: '127.0.0.1:0', RATE_LIMIT_NOT_FOUND_PER_SECOND: '1' },
    });
    try {
      await untilPrerendered(server);
      const metricsOrigin = /Metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(server.output())![1]!;
      const waiting = async () => {
        const text = await (await fetch(`${metricsOrigin}/metrics`)).text();
        return Number(/^site_not_found_waiting (\d+)$/m.exec(text)?.[1] ?? NaN);
      };
      // 60 made-up addresses at once: two leave at once (one per process), the rest wait, one a
      // second per process, about 30 s in all.
      const flood = Array.from({ length: 60 }, () => fresh(server.origin, `/nope/${crypto.randomBytes(8).toString('hex')}`));
      await until(waiting, (n) => n >= 30, 'the flood waiting its turn');
      // Readers meanwhile: answered from the store while the flood still waits.
      for (let i = 0; i < 4; i++) {
        const reader = await fresh(server.origin, '/about');
        expect([reader.status, reader.state]).toEqual([200, 'HIT']);
      }
      expect(await waiting()).toBeGreaterThan(0);
      for (const answer of await Promise.all(flood)) {
        expect(answer.status).toBe(404);
        expect(answer.body).toContain('Page Not Found');
      }
      expect(await waiting()).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('WEB_PROCESSES=2: views', () => {
  it('count one view per address and article across processes; a forged X-Forwarded-For adds none', async () => {
    // No stored pages needed here. TRUST_PROXY is off: X-Forwarded-For is only a client's claim.
    const server = await startServer({ env: { WEB_PROCESSES: '2', PAGE_STORE: 'false', TOP_VIEWED_REFRESH_SECONDS: '3600' } });
    try {
      const blogs = (await (await fetch(server.url('/api/blogs?limit=2'))).json()) as Array<{ id: number }>;
      const [id, markerId] = [blogs[0]!.id, blogs[1]!.id];
      const clicksOf = (blogId: number) => {
        const db = new SQLite(server.databasePath, { readonly: true });
        try {
          return db.prepare('select clicks from blogs where id = ?').pluck().get(blogId) as number;
        } finally {
          db.close();
        }
      };
      const [before, markersBefore] = [clicksOf(id), clicksOf(markerId)];
      const click = (i: number) =>
        fresh(server.origin, `/api/blogs/${id}/click`, {
          method: 'PUT',
          // Every fifth one claims an address of its own.
          headers: i % 5 === 0 ? { 'X-Forwarded-For': `203.0.113.${i % 250}` } : {},
        });
      const answers = await many(400, 16, click);
      for (const answer of answers) expect(answer.status).toBe(204);
      expect(processesOf(answers).size).toBe(2);
      // Then each process counts a view of another article from a loopback address of its own.
      // A process writes all it counted in one transaction, in order: once every marker is in
      // the database, so is every view either process counted from the clicks above.
      const markedBy = new Set<string | null>();
      let markers = 0;
      while (markedBy.size < 2) {
        const marker = await fresh(server.origin, `/api/blogs/${markerId}/click`, {
          method: 'PUT',
          localAddress: `127.0.0.${2 + markers}`,
        });
        expect(marker.status).toBe(204);
        markers++;
        markedBy.add(marker.process);
      }
      await until(
        async () => clicksOf(markerId),
        (clicks) => clicks === markersBefore + markers,
        'every marker written',
      );
      expect(clicksOf(id)).toBe(before + 1);
    } finally {
      await server.stop();
    }
  });
});
