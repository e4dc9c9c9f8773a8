import { describe, expect, it } from 'vitest';
import { insertBlog } from '../db/repositories/blogs.ts';
import { insertCategory } from '../db/repositories/categories.ts';
import { tag } from '../page-store/site-tags.ts';
import { buildBlogWrite } from '../../../tests/support/builders.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { navTagsForCategoryChanges } from './category-visibility.ts';

const published = (category_id: number | null) => ({ status: 'published' as const, publish_at: null, category_id });
const draft = (category_id: number | null) => ({ status: 'draft' as const, publish_at: null, category_id });

async function siteWith(counts: Record<string, number>) {
  const { db } = await openMigratedDatabase();
  const ids: Record<string, number> = {};
  for (const [name, count] of Object.entries(counts)) {
    const { id } = await insertCategory(db, { name, sequence: 0 });
    ids[name] = id;
    for (let i = 0; i < count; i += 1) await insertBlog(db, buildBlogWrite({ title: `${name} ${i}`, category_id: id }), name);
  }
  return { db, ids };
}

describe('navTagsForCategoryChanges', () => {
  it('changes the nav when a category gets its first public article (counted after the write)', async () => {
    const { db, ids } = await siteWith({ Maths: 1, Physics: 2 });
    expect(await navTagsForCategoryChanges(db, [{ before: null, after: published(ids.Maths!) }])).toEqual([tag.nav]);
    expect(await navTagsForCategoryChanges(db, [{ before: draft(ids.Maths!), after: published(ids.Maths!) }])).toEqual([tag.nav]);
    expect(await navTagsForCategoryChanges(db, [{ before: null, after: published(ids.Physics!) }])).toEqual([]);
  });

  it('changes the nav when the last public article leaves a category', async () => {
    const { db, ids } = await siteWith({ Empty: 0, Kept: 1 });
    expect(await navTagsForCategoryChanges(db, [{ before: published(ids.Empty!), after: null }])).toEqual([tag.nav]);
    expect(await navTagsForCategoryChanges(db, [{ before: published(ids.Empty!), after: draft(ids.Empty!) }])).toEqual([tag.nav]);
    expect(await navTagsForCategoryChanges(db, [{ before: published(ids.Kept!), after: null }])).toEqual([]);
  });

  it('counts a move as leaving one category and joining another', async () => {
    const { db, ids } = await siteWith({ From: 0, To: 3 });
    expect(await navTagsForCategoryChanges(db, [{ before: published(ids.From!), after: published(ids.To!) }])).toEqual([tag.nav]);
  });

  it('sees two articles published together into an empty category', async () => {
    const { db, ids } = await siteWith({ Chemistry: 2 });
    const change = { before: draft(ids.Chemistry!), after: published(ids.Chemistry!) };
    expect(await navTagsForCategoryChanges(db, [change, change])).toEqual([tag.nav]);
    expect(await navTagsForCategoryChanges(db, [change])).toEqual([]);
  });

  it('leaves the nav alone for edits that keep an article where it was, and for drafts', async () => {
    const { db, ids } = await siteWith({ Maths: 1 });
    expect(await navTagsForCategoryChanges(db, [{ before: published(ids.Maths!), after: published(ids.Maths!) }])).toEqual([]);
    expect(await navTagsForCategoryChanges(db, [{ before: draft(ids.Maths!), after: draft(ids.Maths!) }])).toEqual([]);
  });
});
