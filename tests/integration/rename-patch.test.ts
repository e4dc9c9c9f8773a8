import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { uniqueName } from '../support/builders.ts';
import { refreshStatus, renameFirstCategory, untilRefreshDrained } from './http-support.ts';

/**
 * A category renamed: the pages naming it beside its articles (their pages, the cards, its list)
 * are rendered again, every other page gets the new nav and footer patched into its stored text
 * (page-store/chrome-patch.ts). What readers get afterwards must be exactly what a render gives:
 * the refreshed site is compared, page by page, with the same site pre-rendered from scratch.
 */

interface RefreshStatus {
  queued: number;
  renderedByWorkers: number;
  patchedByWorkers: number;
}

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  dir = server.dir;
  await untilPrerendered(server);
});

afterAll(async () => {
  await server?.stop();
});

function storedKeys(): string[] {
  const db = new SQLite(path.join(dir, 'pages', 'pages.sqlite'), { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    return (db.prepare('select key from pages order by key').all() as Array<{ key: string }>).map((row) => row.key);
  } finally {
    db.close();
  }
}

/** Each page as a reader gets it once no process answers it stale, with the server's origin (and in share links) written as ORIGIN. */
async function readSite(keys: string[]): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const key of keys) {
    const read = async () => {
      const response = await fetch(server.url(key));
      return { status: response.status, state: response.headers.get('x-page-store'), text: await response.text() };
    };
    const page = await until(read, (answer) => answer.state !== 'STALE', `${key} to be answered fresh`);
    const text = page.text.replaceAll(server.origin, 'ORIGIN').replaceAll(encodeURIComponent(server.origin), 'ORIGIN');
    pages.set(key, `${page.status}\n${text}`);
  }
  return pages;
}

describe('a category rename', () => {
  it('patches the nav of the pages that do not name it, and every page is what a render gives', async () => {
    const auth = bearer(await loginAsAdmin(server));
    const before = await refreshStatus<RefreshStatus>(server, auth);
    expect(before.patchedByWorkers).toBe(0); // a pre-render renders every page

    const renamed = uniqueName('Fields & forces');
    const { category, answer } = await renameFirstCategory(server, renamed, auth);
    expect(answer.status).toBe(200);
    const drained = await untilRefreshDrained<RefreshStatus>(server, auth);
    // Most pages do not name the category outside the nav: their header and footer were patched.
    expect(drained.patchedByWorkers).toBeGreaterThan(0);
    // Its own articles' pages and list name it: rendered.
    expect(drained.renderedByWorkers - before.renderedByWorkers).toBeGreaterThan(drained.patchedByWorkers);

    const keys = storedKeys();
    expect(keys.length).toBeGreaterThan(20);
    const refreshed = await readSite(keys);
    const escaped = renamed.replace('&', '&amp;');
    for (const [key, page] of refreshed) {
      if (page.includes('<nav')) expect(page, key).toContain(escaped);
      expect(page, key).not.toContain(`>${category.name}<`);
    }

    // The same data pre-rendered from scratch by a new server on the same folder.
    await server.stop();
    fs.rmSync(path.join(dir, 'pages'), { recursive: true, force: true });
    server = await startServer({ dir });
    await untilPrerendered(server);
    const rendered = await readSite(keys);
    for (const key of keys) expect(refreshed.get(key), key).toBe(rendered.get(key));
  });
});
