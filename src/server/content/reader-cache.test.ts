import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrateToLatest, openDatabase, type OpenedDatabase } from '../db/client.ts';
import { readAtJobStart } from '../db/read-cache.ts';
import { insertBlog } from '../db/repositories/blogs.ts';
import { insertCategory } from '../db/repositories/categories.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';
import { getArticleList, getHomePage, getRecent, getSiteChrome } from './reader.ts';

const tempDir = trackTempDirs('reader-cache-test-');
const opened: OpenedDatabase[] = [];
afterEach(() => {
  for (const { sqlite } of opened.splice(0)) sqlite.close();
});

async function site(): Promise<{ file: string; db: OpenedDatabase['db']; sqlite: SQLite.Database }> {
  const file = path.join(tempDir(), 'site.sqlite');
  const connection = openDatabase(file);
  opened.push(connection);
  await migrateToLatest(connection.db);
  return { file, ...connection };
}

const names = async (db: OpenedDatabase['db']) => (await getSiteChrome(db)).categories.map((c) => c.name);

/** A category with one article in it (the nav offers only categories readers can find something in). */
async function addCategory(
  db: OpenedDatabase['db'],
  name: string,
  sequence: number,
  status: 'published' | 'draft' = 'published',
) {
  const category = await insertCategory(db, { name, sequence });
  const blogId = await insertBlog(db, buildBlogWrite({ title: `${name} notes`, category_id: category.id, status }), name);
  return { category, blogId };
}

describe('what every page reads alike', () => {
  it('is read once while the database is unchanged', async () => {
    const { db } = await site();
    await addCategory(db, 'Maths', 1);
    expect(await getSiteChrome(db)).toBe(await getSiteChrome(db));
    expect(await getRecent(db)).toBe(await getRecent(db));
  });

  it('is read again after another process committed', async () => {
    const { file, db } = await site();
    await addCategory(db, 'Maths', 1);
    const { blogId } = await addCategory(db, 'Physics', 2, 'draft');
    expect(await names(db)).toEqual(['Maths']);
    const other = new SQLite(file);
    try {
      other.prepare("update blogs set status = 'published' where id = ?").run(blogId);
    } finally {
      other.close();
    }
    expect(await names(db)).toEqual(['Maths', 'Physics']);
  });

  it('is read again after a write on the same connection, and never keeps what a transaction rolled back', async () => {
    const { db } = await site();
    await addCategory(db, 'Maths', 1);
    expect(await names(db)).toEqual(['Maths']);
    await addCategory(db, 'Physics', 2);
    expect(await names(db)).toEqual(['Maths', 'Physics']);
    // A read asked for while a transaction is open (another request) runs once it is over.
    let during: Promise<string[]> | undefined;
    await expect(
      db.transaction().execute(async (trx) => {
        await addCategory(trx, 'Chemistry', 3);
        during = names(db);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await during).toEqual(['Maths', 'Physics']);
    expect(await names(db)).toEqual(['Maths', 'Physics']);
  });

  it('shows a scheduled article once its time has come, with no write in between', async () => {
    // The clock the visibility rule and the cache read is moved by the test: the article's time
    // comes when the test says, however slow the machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2030-01-01T08:00:00.000Z') });
    try {
      const { db } = await site();
      await insertBlog(db, buildBlogWrite({ title: 'Now' }), 'Now');
      const dueAt = '2030-01-01T09:00:00.000Z';
      const scheduled = await insertBlog(db, buildBlogWrite({ title: 'Later', status: 'scheduled', publish_at: dueAt }), 'Later');
      const first = await getHomePage(db, 1);
      expect(first?.pageInfo.totalItems).toBe(1);
      expect((await getArticleList(db, { categoryId: null, search: null, page: 2 })) ?? null).toBeNull();
      vi.setSystemTime(Date.parse('2030-01-01T08:59:59.999Z'));
      expect((await getHomePage(db, 1))?.pageInfo.totalItems).toBe(1);
      vi.setSystemTime(Date.parse(dueAt));
      const later = await getHomePage(db, 1);
      expect(later?.pageInfo.totalItems).toBe(2);
      expect(later?.items[0]?.id).toBe(scheduled);
      expect((await getArticleList(db, { categoryId: null, search: null, page: 2 }))?.items.map((b) => b.title)).toEqual(['Now']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("a render worker's job", () => {
  /** Publishes a draft from another connection, as another process commits. */
  const publishElsewhere = (file: string, blogId: number) => {
    const other = new SQLite(file);
    try {
      other.prepare("update blogs set status = 'published' where id = ?").run(blogId);
    } finally {
      other.close();
    }
  };

  it('reads the database as of its start: what was committed before, not what is committed during it', async () => {
    const { file, db } = await site();
    await addCategory(db, 'Maths', 1);
    const { blogId: chemistry } = await addCategory(db, 'Chemistry', 3, 'draft');
    const { blogId: physics } = await addCategory(db, 'Physics', 2, 'draft');
    expect(await names(db)).toEqual(['Maths']);
    publishElsewhere(file, physics);
    const seen = await readAtJobStart(db, async () => {
      const atStart = await names(db);
      publishElsewhere(file, chemistry);
      return [atStart, await names(db)];
    });
    expect(seen).toEqual([
      ['Maths', 'Physics'],
      ['Maths', 'Physics'],
    ]);
    // After the job, the next read looks again.
    expect(await names(db)).toEqual(['Maths', 'Physics', 'Chemistry']);
  });

  it('looks at the state once, however many reads it makes', async () => {
    const { db, sqlite } = await site();
    await addCategory(db, 'Maths', 1);
    await names(db);
    const looks = vi.spyOn(sqlite, 'prepare');
    const state = (db as unknown as { readCache: { statements: { state: { get: () => unknown } } } }).readCache.statements.state;
    const stateLooks = vi.spyOn(state, 'get');
    await readAtJobStart(db, async () => {
      for (let i = 0; i < 5; i++) await names(db);
    });
    expect(stateLooks).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 5; i++) await names(db);
    expect(stateLooks).toHaveBeenCalledTimes(6);
    expect(looks).not.toHaveBeenCalled();
  });
});

describe('the categories the nav and footer offer', () => {
  it('are those with an article readers can see, in sequence order', async () => {
    const { db } = await site();
    await addCategory(db, 'Physics', 2);
    await addCategory(db, 'Drafts only', 1, 'draft');
    await insertCategory(db, { name: 'Empty', sequence: 0 });
    await addCategory(db, 'Maths', 1);
    expect(await names(db)).toEqual(['Maths', 'Physics']);
  });
});
