import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from '../client.ts';
import type { Database } from '../schema.ts';
import { countBlogs, listBlogIds, listBlogSummaries, listPublicBlogIds } from './blog-lists.ts';
import { findAdjacentBlogs, listPublicPdfBlogIds, listRecent, listTopViewed } from './blog-side-lists.ts';
import { refreshPdfColumn } from './search.ts';

/** The plan SQLite picks for each query a reader's list page runs, on a migrated database. */
async function plansOf(run: (db: Db) => Promise<unknown>): Promise<string[]> {
  const sqlite = new SQLite(':memory:');
  const queries: CompiledQuery[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => void (event.level === 'query' && queries.push(event.query)),
  });
  await migrateToLatest(db);
  queries.length = 0;
  await run(db);
  const plans = queries.map((query) =>
    (sqlite.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join(' | '),
  );
  await db.destroy();
  return plans;
}

describe('reader list queries', () => {
  // Every page of /blogs, of a category, the home page's lists and its count would otherwise read
  // and sort every visible article (the status index was picked for the visibility check).
  it('walk a list index in order, checking visibility from the index, without sorting the site', async () => {
    const plans = await plansOf(async (db) => {
      await listBlogSummaries(db, {}, { limit: 1, offset: 40 });
      await listBlogSummaries(db, { categoryId: 3 }, { limit: 1, offset: 40 });
      await listTopViewed(db, 10);
      await listRecent(db, 10);
      await countBlogs(db, {});
    });
    expect(plans).toHaveLength(5);
    for (const plan of plans) expect(plan).not.toMatch(/blogs_status_publish_at|MULTI-INDEX OR/);
    // A page's own few rows may be put back in order; the site's articles never are.
    for (const plan of plans.slice(2)) expect(plan).not.toMatch(/TEMP B-TREE/);
    expect(plans[0]).toMatch(/COVERING INDEX blogs_created_visible/);
    expect(plans[1]).toMatch(/COVERING INDEX blogs_category_created_visible/);
    expect(plans[2]).toMatch(/INDEX blogs_clicks_visible/);
    expect(plans[3]).toMatch(/INDEX blogs_created_visible/);
  });

  it("read a list's ordered ids from its index alone, without sorting", async () => {
    const plans = await plansOf(async (db) => {
      await listPublicBlogIds(db, null);
      await listPublicBlogIds(db, 3);
    });
    for (const plan of plans) expect(plan).not.toMatch(/TEMP B-TREE|blogs_status_publish_at/);
    expect(plans[0]).toMatch(/COVERING INDEX blogs_created_visible/);
    expect(plans[1]).toMatch(/COVERING INDEX blogs_category_created_visible/);
  });

  it("read the sitemap's articles from an index alone, in id order, not the whole table", async () => {
    const [plan] = await plansOf((db) => listBlogIds(db));
    expect(plan).toMatch(/COVERING INDEX blogs_id_updated_visible/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('find the articles a PDF is attached to through an index, not by reading every article', async () => {
    const [plan] = await plansOf((db) => refreshPdfColumn(db, 'pdfs/notes.pdf', 'The text'));
    expect(plan).toMatch(/INDEX blogs_pdf_link/);
    // Whether each has a search row is one rowid lookup, not a list of every indexed row (about
    // 12 ms at 10,000 articles, on the serving thread, for each PDF read at start).
    expect(plan).not.toMatch(/LIST SUBQUERY/);
    expect(plan).toMatch(/blogs_fts EXISTS VIRTUAL TABLE INDEX \d+:=/);
  });

  // Every article page shows its Older and Newer neighbours, in the site and in its category. A
  // scan from the newest article down cost 4-9 ms a page at 100,000 articles: the pre-render got
  // slower the larger the site (150 pages/s against 900 at 10,000).
  it("seek an article's neighbours in a list index, never scan it", async () => {
    const at = { id: 500, created_at: '2024-05-01T10:00:00.000Z' };
    const plans = await plansOf(async (db) => {
      await findAdjacentBlogs(db, at);
      await findAdjacentBlogs(db, at, 3);
    });
    expect(plans).toHaveLength(4);
    for (const plan of plans) {
      expect(plan).toMatch(
        /^SEARCH blogs USING (COVERING )?INDEX blogs_(category_)?created_visible \((category_id=\? AND )?\(?created_at(,id\))?[<>]\?\)/,
      );
      expect(plan).not.toMatch(/SCAN|TEMP B-TREE/);
    }
  });

  // The Downloads pages' ids, after every save that stales them: 74-86 ms at 100,000 articles
  // walking the list index and reading each row's PDF column, 3 ms from an index of those alone.
  it('read the articles with a PDF from their own index, in order', async () => {
    const plans = await plansOf(async (db) => {
      await listPublicPdfBlogIds(db);
      await listPublicPdfBlogIds(db, 50);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toMatch(/INDEX blogs_pdf_created_visible/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
