import crypto from 'node:crypto';
import { findImportSource, saveImportSource } from '../db/repositories/import-sources.ts';
import { findRedirect } from '../db/repositories/redirects.ts';
import { findInfoPage, saveInfoPage } from '../db/repositories/info-pages.ts';
import { recordInfoPageRevision } from '../content/info-page-revisions.ts';
import { defaultInfoPageHtml } from '../content/info-page-defaults.ts';
import { readSiteSettings } from '../content/site-settings.ts';
import { sanitizeArticleHtml } from '../content/sanitize.ts';
import { toEditorShapes } from './editor-shapes.ts';
import { tag } from '../page-store/site-tags.ts';
import { hasVisibleContent } from '../../shared/validation/info-page.ts';
import type { ImportInfoPage } from './import-types.ts';
import type { Run } from './import-run-state.ts';
import { rewriteLinks } from './rewrite-links.ts';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * The old site's About or Contact page offered as this site's: taken when this site's page still
 * shows its built-in text, or still shows what an earlier run of the same import wrote; a page
 * the admin has edited is kept, and the report says so.
 */
export async function importInfoPage(run: Run, page: ImportInfoPage): Promise<void> {
  const { target, site, options, report } = run;
  const notes: string[] = [];
  const html = await rewriteLinks(
    page.html,
    { origin: site.origin, files: run.files, articleFor: (path) => findRedirect(target.db, path) },
    notes,
  );
  const content = sanitizeArticleHtml(toEditorShapes(html));
  const line = { slug: page.slug, title: page.title };
  if (!hasVisibleContent(content)) {
    report.infoPages.push({ ...line, outcome: 'kept', reason: 'the old page has no text' });
    return;
  }
  const key = { source: site.source, kind: `page:${page.slug}`, source_id: page.sourceId };
  const known = await findImportSource(target.db, key);
  const current = await findInfoPage(target.db, page.slug);
  const ours = current && known && sha256(current.content) === known.hash;
  if (ours && current.content === content) {
    report.infoPages.push({ ...line, outcome: 'unchanged' });
    return;
  }
  if (current && !ours) {
    report.infoPages.push({
      ...line,
      outcome: 'kept',
      reason: "this site's page was already edited; copy the old one by hand if you want it",
    });
    return;
  }
  report.infoPages.push({
    ...line,
    outcome: current ? 'updated' : 'imported',
    ...(notes.length ? { reason: notes.join('; ') } : {}),
  });
  if (options.dryRun) return;
  const saver = { id: options.saver?.id ?? null, username: options.saver?.username ?? 'import' };
  await target.db.transaction().execute(async (trx) => {
    // As the editor's first save does: the built-in text is kept as a revision, so it can come back.
    if (!current) {
      const { site_title } = await readSiteSettings(trx);
      const builtin = { slug: page.slug, content: defaultInfoPageHtml(page.slug, site_title), content_source: null };
      await recordInfoPageRevision(trx, builtin, saver, 'builtin', target.revisionsKeep);
    }
    const text = { slug: page.slug, content, content_source: null };
    await saveInfoPage(trx, text);
    await recordInfoPageRevision(trx, text, saver, 'update', target.revisionsKeep);
    await saveImportSource(trx, { ...key, target_id: null, target_url: null, hash: sha256(content) });
  });
  run.tags.push(tag.infoPages);
}
