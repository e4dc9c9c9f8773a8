import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { deleteDemo, isDemoFolderReferenced } from '../db/repositories/demo-content.ts';
import { notFound } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { DEMO_SOCIAL_LINKS } from './demo-social-links.ts';
import { removeUnreferencedUploads } from '../uploads/cleanup.ts';
import { readSiteSettings, writeSettings } from './site-settings.ts';
import type { RemovedDemoAnswer } from '../../shared/api-types.ts';

/**
 * Removes the demo content in one step: demo articles (with their comments and search rows),
 * slides, the demo categories left empty, the demo social links, and their files (the generated
 * `uploads/demo/` folder once nothing refers to it, and uploads only they used). Then every page
 * is refreshed: the main ones before this answers, the rest in the background; pages of removed
 * articles answer 404 from then on.
 */
export async function removeDemoContent(app: AppContext): Promise<RemovedDemoAnswer> {
  const startedAt = performance.now();
  const settings = await readSiteSettings(app.db);
  const removed = await app.db.transaction().execute(async (trx) => {
    const result = await deleteDemo(trx);
    const demoLinks = Object.fromEntries(
      Object.entries(DEMO_SOCIAL_LINKS).flatMap(([key, value]) =>
        settings[key as keyof typeof DEMO_SOCIAL_LINKS] === value ? [[key, '']] : [],
      ),
    );
    await writeSettings(trx, demoLinks);
    return result;
  });
  if (removed.blogs + removed.slides + removed.categories === 0 && removed.keptCategories === 0) throw notFound('Demo content');
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, removed.files);
  if (!(await isDemoFolderReferenced(app.db)))
    await fs.rm(path.join(app.config.uploadsDir, 'demo'), { recursive: true, force: true });

  const tags = [tag.settings, tag.nav, tag.list, tag.updates, tag.topViewed];
  // Taken down: no page showing a removed article, comment, slide, PDF or category is answered
  // stale once this answers; the rest of the site (its settings and nav) is refreshed as usual.
  const takenDown = [
    tag.carousel,
    tag.downloads,
    ...removed.blogIds.flatMap((id) => [tag.blog(id), tag.comments(id), tag.inBlock(id)]),
    ...removed.categoryIds.map(tag.category),
  ];
  const { live_ms, refresh } = await app.pageCache.invalidate(tags, startedAt, takenDown);
  const { blogs, comments, slides, categories } = removed;
  return {
    message: `Demo content removed: ${blogs} articles, ${comments} comments, ${slides} slides and ${categories} categories.`,
    removed: { blogs, comments, slides, categories },
    keptCategories: removed.keptCategories,
    live_ms,
    refresh,
  };
}
