import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import { findInfoPage, saveInfoPage } from '../db/repositories/info-pages.ts';
import { AppError, invalidInput, throwIfInvalid } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { removeUnreferencedUploads } from '../uploads/cleanup.ts';
import { sanitizeArticleHtml } from './sanitize.ts';
import { defaultInfoPageHtml } from './info-page-defaults.ts';
import { getInfoPageRevision, recordInfoPageRevision } from './info-page-revisions.ts';
import {
  hasVisibleContent,
  INFO_PAGE_MESSAGES,
  INFO_PAGE_TITLES,
  isInfoPageSlug,
  validateInfoPageInput,
  type InfoPageSlug,
} from '../../shared/validation/info-page.ts';
import type { InfoPageDto, SavedInfoPage } from '../../shared/api-types.ts';

/**
 * About and Contact: written by the admin with the article editor, sanitized on write like an
 * article. Until the first save a page shows its built-in text (with the site's title). Every
 * save records a revision (info-page-revisions.ts) in the same transaction and refreshes both
 * pages before it answers; a restore is a save of its own.
 */

/** The page a path names: about or contact, anything else a 404 with the one message. */
export function requireInfoPageSlug(raw: string | undefined): InfoPageSlug {
  if (!isInfoPageSlug(raw)) throw new AppError('not_found', INFO_PAGE_MESSAGES.notFound);
  return raw;
}

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
  admin: Pick<PublicUser, 'id' | 'username'>,
  slug: InfoPageSlug,
  body: Record<string, unknown>,
  siteTitle: string,
  action: 'update' | 'restore' = 'update',
): Promise<SavedInfoPage> {
  const startedAt = performance.now();
  const values = throwIfInvalid(validateInfoPageInput(body));
  const content = sanitizeArticleHtml(values.content);
  if (!hasVisibleContent(content))
    throw invalidInput(INFO_PAGE_MESSAGES.contentRequired, { content: INFO_PAGE_MESSAGES.contentRequired });
  const keep = app.config.revisionsKeep;
  const { before, pruned } = await app.db.transaction().execute(async (trx) => {
    const existing = await findInfoPage(trx, slug);
    // The first save replaces the built-in text: it is kept as a revision so it can come back.
    if (!existing) {
      const builtin = { slug, content: defaultInfoPageHtml(slug, siteTitle), content_source: null };
      await recordInfoPageRevision(trx, builtin, admin, 'builtin', keep);
    }
    const page = { slug, content, content_source: values.content_source };
    await saveInfoPage(trx, page);
    return { before: existing, pruned: await recordInfoPageRevision(trx, page, admin, action, keep) };
  });
  const { live_ms, refresh } = await app.pageCache.invalidate([tag.infoPages], startedAt);
  // Pictures the edit took out go once no kept revision (nor anything else) uses them.
  const replaced = [before, ...pruned].flatMap((text) => [text?.content, text?.content_source]);
  await removeUnreferencedUploads(app.db, app.config.uploadsDir, replaced);
  const saved = await getInfoPage(app.db, slug, siteTitle);
  const title = INFO_PAGE_TITLES[slug];
  const message = action === 'restore' ? INFO_PAGE_MESSAGES.restored(title) : INFO_PAGE_MESSAGES.saved(title);
  return { ...saved, message, live_ms, refresh };
}

/** Brings a revision's text back as a save of its own: sanitized again, a new revision, pages refreshed. */
export async function restoreInfoPageRevision(
  app: AppContext,
  admin: Pick<PublicUser, 'id' | 'username'>,
  slug: InfoPageSlug,
  revisionId: number,
  siteTitle: string,
): Promise<SavedInfoPage> {
  const revision = await getInfoPageRevision(app, slug, revisionId);
  const body = { content: revision.content, content_source: revision.content_source };
  return saveInfoPageText(app, admin, slug, body, siteTitle, 'restore');
}
