import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { findInfoPage, saveInfoPage } from '../db/repositories/info-pages.ts';
import { invalidInput, throwIfInvalid } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { sanitizeArticleHtml } from './sanitize.ts';
import { defaultInfoPageHtml } from './info-page-defaults.ts';
import {
  hasVisibleContent,
  INFO_PAGE_MESSAGES,
  INFO_PAGE_TITLES,
  validateInfoPageInput,
  type InfoPageSlug,
} from '../../shared/validation/info-page.ts';
import type { InfoPageDto, SavedInfoPage } from '../../shared/api-types.ts';

/**
 * About and Contact: written by the admin with the article editor, sanitized on write like an
 * article. Until the first save a page shows its built-in text (with the site's title). A save
 * keeps the text it replaced (info_pages.previous_*) and refreshes both pages before it answers.
 */

export async function getInfoPage(db: Db, slug: InfoPageSlug, siteTitle: string): Promise<InfoPageDto> {
  const row = await findInfoPage(db, slug);
  return {
    slug,
    title: INFO_PAGE_TITLES[slug],
    content: row?.content ?? defaultInfoPageHtml(slug, siteTitle),
    content_source: row?.content_source ?? null,
    updated_at: row?.updated_at ?? null,
  };
}

export async function saveInfoPageText(
  app: AppContext,
  slug: InfoPageSlug,
  body: Record<string, unknown>,
  siteTitle: string,
): Promise<SavedInfoPage> {
  const startedAt = performance.now();
  const values = throwIfInvalid(validateInfoPageInput(body));
  const content = sanitizeArticleHtml(values.content);
  if (!hasVisibleContent(content))
    throw invalidInput(INFO_PAGE_MESSAGES.contentRequired, { content: INFO_PAGE_MESSAGES.contentRequired });
  // Pictures of replaced texts stay: the previous text is kept, and a revisions table may keep more.
  await app.db.transaction().execute(async (trx) => {
    const previous = await getInfoPage(trx, slug, siteTitle);
    await saveInfoPage(trx, { slug, content, content_source: values.content_source }, previous);
  });
  const { live_ms, refresh } = await app.pageCache.invalidate([tag.infoPages], startedAt);
  const saved = await getInfoPage(app.db, slug, siteTitle);
  return { ...saved, message: INFO_PAGE_MESSAGES.saved(INFO_PAGE_TITLES[slug]), live_ms, refresh };
}
