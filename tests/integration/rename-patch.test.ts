import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { buildBlogBody, uniqueName } from '../support/builders.ts';
import { renameCategoriesIn, type CategoryRename } from '../../src/server/page-store/category-name-patch.ts';
import { harvestChrome, patchChrome } from '../../src/server/page-store/chrome-patch.ts';
import { categoryListOf } from '../../src/shared/site-map/page-key.ts';
import { call, refreshStatus, renameFirstCategory, sendJson, untilRefreshDrained } from './http-support.ts';

/**
 * A category renamed: every page gets the new nav and footer patched into its stored text
 * (page-store/chrome-patch.ts), and the pages naming it beside its articles (their pages, the
 * cards, its list) get its new name written where the components show it
 * (page-store/category-name-patch.ts). What readers get afterwards must be exactly what a render
 * gives: the refreshed site is compared, page by page, with the same site pre-rendered from
 * scratch. The new name has every character HTML and JSON escape, the names have characters
 * outside Latin-1 (the worker patches the pages' UTF-8 bytes), and an article titled with the old
 * name keeps its title.
 */

interface RefreshStatus {
  queued: number;
  renderedByWorkers: number;
  patchedByWorkers: number;
  renamedByWorkers: number;
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

/** The stored pages' keys, or those carrying `tag`. */
function storedKeys(tag?: string): string[] {
  const db = new SQLite(path.join(dir, 'pages', 'pages.sqlite'), { readonly: true });
  try {
    db.pragma('busy_timeout = 5000');
    const rows = tag
      ? db.prepare('select key from page_tags where tag = ? order by key').all(tag)
      : db.prepare('select key from pages order by key').all();
    return (rows as Array<{ key: string }>).map((row) => row.key);
  } finally {
    db.close();
  }
}

const HTML_TEXT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
const inHtmlText = (text: string) => text.replace(/[&<>'"]/g, (char) => HTML_TEXT[char]!);

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

/** Every HTML page in `keys` as read before the renames, each patched as a worker would, against the same page rendered afresh. */
function expectPatchedAsRendered(
  keys: string[],
  asNamed: Map<string, string>,
  rendered: Map<string, string>,
  renames: ReadonlyArray<{ rename: CategoryRename; naming: ReadonlySet<string> }>,
): void {
  for (const key of keys) {
    const stored = asNamed.get(key)!;
    if (!stored.includes('<html')) continue; // the feed is rendered
    // As a worker patches them: the pages' UTF-8 bytes.
    const fresh = Buffer.from(rendered.get(key)!);
    const named = renameCategoriesIn(
      Buffer.from(stored),
      renames.filter(({ naming }) => naming.has(key)).map(({ rename }) => rename),
      categoryListOf(key),
    );
    expect(named, key).not.toBeNull();
    expect(patchChrome(named!, harvestChrome(fresh) ?? new Map())?.toString('utf8'), key).toBe(fresh.toString('utf8'));
  }
}

describe('a category rename', () => {
  it('patches the nav of every page and the names where pages show them, and every page is what a render gives', async () => {
    const auth = bearer(await loginAsAdmin(server));
    const before = await refreshStatus<RefreshStatus>(server, auth);
    expect(before.patchedByWorkers).toBe(0); // a pre-render renders every page

    // A category of one list page (one article), its article titled with the category's name whose text
    // has no words (no summary: its description names the category), beside the site's first
    // category, whose list has several pages.
    const first = ((await call(server, '/api/categories')).body as Array<{ id: number; name: string; sequence: number }>)[0]!;
    const created = await sendJson(server, 'POST', '/api/categories', { name: uniqueName('Óptica'), sequence: 50 }, auth);
    expect(created.status).toBe(201);
    const small = created.body as { id: number; name: string; sequence: number };
    const title = `${small.name}: a ${small.name} article`;
    const titled = await sendJson(
      server,
      'POST',
      '/api/blogs',
      buildBlogBody(small.id, { title, content: '<hr>', content_source: '---' }),
      auth,
    );
    expect(titled.status).toBe(201);
    const titledKey = `/blog/${(titled.body as { id: number }).id}`;
    // Every page they moved refreshed: the pages carrying a category's name are those that show it.
    await untilRefreshDrained<RefreshStatus>(server, auth);
    const namingFirst = new Set(storedKeys(`category-name:${first.id}`));
    const namingSmall = new Set(storedKeys(`category-name:${small.id}`));
    expect(namingSmall).toContain(titledKey);
    expect(namingSmall).toContain(`/blogs?category=${small.id}`);
    expect(namingFirst).toContain(`/blogs?category=${first.id}&page=2`);
    const naming = [...new Set([...namingFirst, ...namingSmall])];
    const asNamed = await readSite(naming);
    expect(asNamed.get(titledKey)).toContain(`: a ${small.name} article."`);
    expect(asNamed.get(`/blogs?category=${small.id}`)).toContain(`<title>${small.name} | `);

    const renamedFirst = uniqueName(`Fields & "forces" <1> 'n'`);
    const renamedSmall = uniqueName(`Lumière & <lenses> "2" → 光`);
    const { category, answer } = await renameFirstCategory(server, renamedFirst, auth);
    expect(answer.status).toBe(200);
    expect(category.id).toBe(first.id);
    const second = await sendJson(
      server,
      'PUT',
      `/api/categories/${small.id}`,
      { name: renamedSmall, sequence: small.sequence },
      auth,
    );
    expect(second.status).toBe(200);
    const drained = await untilRefreshDrained<RefreshStatus>(server, auth);
    // Their header and footer were patched, and on pages naming a category its new name written
    // in. A worker renders the first page of each kind it gets (to take its header and footer) and
    // patches the next: the first category's articles' pages, all of one kind and all in the
    // background, are more than the two workers, so one worker gets two of them.
    expect([...namingFirst].filter((key) => key.startsWith('/blog/')).length).toBeGreaterThan(2);
    expect(drained.patchedByWorkers).toBeGreaterThan(0);
    expect(drained.renamedByWorkers).toBeGreaterThan(0);
    expect(drained.renamedByWorkers).toBeLessThanOrEqual(naming.length);

    const keys = storedKeys();
    expect(keys.length).toBeGreaterThan(20);
    const refreshed = await readSite(keys);
    for (const [key, page] of refreshed) {
      if (page.includes('<nav')) expect(page, key).toContain(inHtmlText(renamedFirst));
      expect(page, key).not.toContain(`>${first.name}<`);
      expect(page, key).not.toContain(`>${small.name}<`);
    }
    expect(refreshed.get(titledKey)).toContain(`<h1 dir="auto">${title}</h1>`);

    // The same data pre-rendered from scratch by a new server on the same folder.
    await server.stop();
    fs.rmSync(path.join(dir, 'pages'), { recursive: true, force: true });
    server = await startServer({ dir });
    await untilPrerendered(server);
    const rendered = await readSite(keys);
    for (const key of keys) expect(refreshed.get(key), key).toBe(rendered.get(key));

    // Whichever of them the workers happened to patch: each page naming a category, as stored
    // before the renames, patched here gives what a render gives.
    expectPatchedAsRendered(naming, asNamed, rendered, [
      { rename: { id: first.id, from: first.name, to: renamedFirst }, naming: namingFirst },
      { rename: { id: small.id, from: small.name, to: renamedSmall }, naming: namingSmall },
    ]);
  });
});
