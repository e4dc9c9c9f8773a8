import { describe, expect, it } from 'vitest';
import { insertBlog } from '../db/repositories/blogs.ts';
import { findAdjacentBlogs } from '../db/repositories/blog-side-lists.ts';
import { insertCategory } from '../db/repositories/categories.ts';
import { tag } from '../page-store/site-tags.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { neighbourTagsForChanges } from './article-neighbours.ts';

const day = (n: number) => new Date(Date.UTC(2030, 0, n)).toISOString();

/** Articles on days 1, 2, 3... (A, B in Maths, C in Physics, D a draft, E in Maths). */
async function site() {
  const { db } = await openMigratedDatabase();
  const maths = (await insertCategory(db, { name: 'Maths', sequence: 1 })).id;
  const physics = (await insertCategory(db, { name: 'Physics', sequence: 2 })).id;
  const add = (title: string, n: number, category_id: number, status: 'published' | 'draft' = 'published') =>
    insertBlog(db, buildBlogWrite({ title, category_id, status }), title, day(n));
  const ids = {
    a: await add('A', 1, maths),
    b: await add('B', 2, maths),
    c: await add('C', 3, physics),
    d: await add('D', 4, maths, 'draft'),
    e: await add('E', 5, maths),
  };
  return { db, maths, physics, ids };
}

describe('findAdjacentBlogs', () => {
  it('names the public articles either side in the whole site, skipping drafts', async () => {
    const { db, ids } = await site();
    expect(await findAdjacentBlogs(db, { id: ids.c, created_at: day(3) })).toEqual({
      older: { id: ids.b, title: 'B' },
      newer: { id: ids.e, title: 'E' },
    });
    expect(await findAdjacentBlogs(db, { id: ids.a, created_at: day(1) })).toEqual({
      older: null,
      newer: { id: ids.b, title: 'B' },
    });
    expect(await findAdjacentBlogs(db, { id: ids.e, created_at: day(5) })).toEqual({
      older: { id: ids.c, title: 'C' },
      newer: null,
    });
  });

  it('names them within a category when asked', async () => {
    const { db, maths, physics, ids } = await site();
    expect(await findAdjacentBlogs(db, { id: ids.b, created_at: day(2) }, maths)).toEqual({
      older: { id: ids.a, title: 'A' },
      newer: { id: ids.e, title: 'E' },
    });
    expect(await findAdjacentBlogs(db, { id: ids.c, created_at: day(3) }, physics)).toEqual({ older: null, newer: null });
  });

  it('orders articles of the same time by id, as the lists do', async () => {
    const { db } = await openMigratedDatabase();
    const first = await insertBlog(db, buildBlogWrite({ title: 'First' }), 'x', day(1));
    const second = await insertBlog(db, buildBlogWrite({ title: 'Second' }), 'x', day(1));
    expect(await findAdjacentBlogs(db, { id: first, created_at: day(1) })).toEqual({
      older: null,
      newer: { id: second, title: 'Second' },
    });
  });
});

describe('neighbourTagsForChanges', () => {
  const placed = (id: number, n: number, category_id: number | null, status: 'published' | 'draft' = 'published') => ({
    id,
    created_at: day(n),
    category_id,
    status,
    publish_at: null,
  });

  it('stales the links of the articles either side of one that joins the lists, in the site and its category', async () => {
    const { db, maths, ids } = await site();
    const tags = await neighbourTagsForChanges(db, [
      { before: placed(ids.d, 4, maths, 'draft'), after: placed(ids.d, 4, maths) },
    ]);
    expect(tags).toEqual([tag.neighbours(ids.c), tag.neighbours(ids.e), tag.neighbours(ids.b), tag.neighbours(ids.e)]);
  });

  it('leaves them alone for an edit in place, and for an article that leaves (its own tag reaches those pages)', async () => {
    const { db, maths, ids } = await site();
    expect(await neighbourTagsForChanges(db, [{ before: placed(ids.b, 2, maths), after: placed(ids.b, 2, maths) }])).toEqual([]);
    expect(await neighbourTagsForChanges(db, [{ before: placed(ids.b, 2, maths), after: null }])).toEqual([]);
  });

  it('stales only the new category’s pair when an article moves', async () => {
    const { db, maths, physics, ids } = await site();
    const tags = await neighbourTagsForChanges(db, [{ before: placed(ids.c, 3, physics), after: placed(ids.c, 3, maths) }]);
    expect(tags).toEqual([tag.neighbours(ids.b), tag.neighbours(ids.e)]);
  });
});
