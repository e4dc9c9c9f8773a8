import crypto from 'node:crypto';
import type { Db } from '../db/client.ts';
import { findBlogById, insertBlog, updateBlog } from '../db/repositories/blogs.ts';
import { findCategoryByName, insertCategory } from '../db/repositories/categories.ts';
import { insertComment } from '../db/repositories/comments.ts';
import { listImportSources, saveImportSource } from '../db/repositories/import-sources.ts';
import { findRedirect, saveRedirects } from '../db/repositories/redirects.ts';
import { toBlogWrite } from '../content/blogs-admin.ts';
import { recordRevision } from '../content/blog-revisions.ts';
import { changedTags, takenDownTags } from '../content/blog-publication.ts';
import { neighbourTagsForChanges } from '../content/article-neighbours.ts';
import { tag } from '../page-store/site-tags.ts';
import { summarizeErrors, hasErrors } from '../../shared/validation/common.ts';
import { validateBlogInput } from '../../shared/validation/blog.ts';
import { CATEGORY_LIMITS, validateCategoryInput } from '../../shared/validation/category.ts';
import { validateCommentInput } from '../../shared/validation/comment.ts';
import { createImportFiles, type FileResult } from './import-files.ts';
import { DEFAULT_IMPORT_CATEGORY, type ImportArticle, type ImportSite } from './import-types.ts';
import { emptyReport, type ReportLine } from './import-report.ts';
import { isOldUploadAddress, rewriteLinks } from './rewrite-links.ts';
import { toEditorShapes } from './editor-shapes.ts';
import { importInfoPage } from './import-info-page.ts';
import type { ImportOptions, ImportOutcome, ImportTarget, Run } from './import-run-state.ts';

export type { ImportOptions, ImportOutcome, ImportTarget } from './import-run-state.ts';

/**
 * Writes an imported site: each article through the editor's own rules (the blog form's
 * validation, the sanitizer, a revision) in a transaction of its own with its comments, its
 * idempotency row and its old addresses, so one bad article fails alone with its reason and a
 * second run of the same file changes nothing. A dry run does every check and writes nothing.
 */

const hashOf = (article: ImportArticle, files: unknown[]) => {
  const { notes: _notes, ...content } = article;
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([content, files]))
    .digest('hex');
};

function categoryName(name: string | null): string {
  const { values, errors } = validateCategoryInput({ name: name ?? '' });
  if (errors.name && values.name === '') return DEFAULT_IMPORT_CATEGORY;
  return values.name.slice(0, CATEGORY_LIMITS.name).trim();
}

async function categoryId(run: Run, db: Db, name: string): Promise<number> {
  const found = await findCategoryByName(db, name);
  if (found) return found.id;
  run.report.categoriesCreated.push(name);
  return (await insertCategory(db, { name, sequence: 0 })).id;
}

/** The featured image brought from the uploads folder; one on another site is named as such, never looked for there. */
async function featuredImage(run: Run, address: string): Promise<FileResult> {
  if (isOldUploadAddress(address, run.site.origin)) return run.files.resolve(address);
  let host = address;
  try {
    host = new URL(address).host;
  } catch {
    // Not an address at all: named as it was written.
  }
  return { missing: `${address}: on another site (${host}), not among the old site's uploads; add it in the editor` };
}

async function importArticle(run: Run, article: ImportArticle): Promise<void> {
  const { target, site, options, report } = run;
  const line: ReportLine = { sourceId: article.sourceId, title: article.title, notes: [...article.notes] };
  const known = run.posts.get(article.sourceId);
  const existing = known?.target_id ? await findBlogById(target.db, known.target_id) : undefined;
  const image = article.imageUrl ? await featuredImage(run, article.imageUrl) : null;
  if (image && 'missing' in image) line.notes.push(`featured image ${image.missing}`);
  const html = await rewriteLinks(
    toEditorShapes(article.html),
    { origin: site.origin, files: run.files, articleFor: (path) => findRedirect(target.db, path) },
    line.notes,
  );
  // The files found count: a run with the uploads folder given updates what a run without it imported.
  const hash = hashOf(article, [image, ...line.notes]);
  if (existing && known?.hash === hash) {
    report.unchanged.push({ ...line, id: existing.id, notes: [] });
    return;
  }
  if (article.otherTerms.length) line.notes.push(`also filed under ${article.otherTerms.join(', ')} (one category is shown)`);
  const body = {
    title: article.title,
    content: html,
    category_id: 1,
    image: image && 'url' in image && !options.dryRun ? image.url : null,
    status: article.status,
    publish_at: article.publishAt,
  };
  const checked = validateBlogInput(body);
  if (hasErrors(checked.errors)) {
    report.failed.push({ ...line, reason: summarizeErrors(checked.errors) });
    return;
  }
  const name = categoryName(article.category);
  if (options.dryRun) {
    if (!(await findCategoryByName(target.db, name)) && !report.categoriesCreated.includes(name))
      report.categoriesCreated.push(name);
    report.comments.imported += article.comments.filter((c) => !run.comments.has(c.sourceId)).length;
    report.redirects += article.oldPaths.length;
    (existing ? report.updated : report.imported).push(line);
    return;
  }
  try {
    const { before, after } = await target.db.transaction().execute(async (trx) => {
      const values = { ...checked.values, category_id: await categoryId(run, trx, name) };
      const { write, text } = toBlogWrite(values, article.author || 'Imported');
      const createdAt = article.status === 'scheduled' && article.publishAt ? article.publishAt : article.createdAt;
      let id: number;
      if (existing) {
        id = existing.id;
        await updateBlog(trx, id, write, text, createdAt);
      } else id = await insertBlog(trx, write, text, createdAt);
      const saved = (await findBlogById(trx, id))!;
      await recordRevision(trx, saved, options.saver, 'import', target.revisionsKeep);
      await importComments(run, trx, article, id, line);
      await saveImportSource(trx, {
        source: site.source,
        kind: 'post',
        source_id: article.sourceId,
        target_id: id,
        target_url: null,
        hash,
      });
      await saveRedirects(trx, id, article.oldPaths);
      return { before: existing ?? null, after: saved };
    });
    report.redirects += article.oldPaths.length;
    // An imported article joining the lists becomes its neighbours' Older or Newer link.
    run.tags.push(
      ...changedTags(before, after),
      tag.comments(after.id),
      ...(await neighbourTagsForChanges(target.db, [{ before, after }])),
    );
    run.takenDown.push(...takenDownTags(before, after));
    (before ? report.updated : report.imported).push({ ...line, id: after.id });
  } catch (error) {
    report.failed.push({ ...line, reason: error instanceof Error ? error.message : String(error) });
  }
}

async function importComments(run: Run, db: Db, article: ImportArticle, blogId: number, line: ReportLine): Promise<void> {
  for (const comment of article.comments) {
    if (run.comments.has(comment.sourceId)) {
      run.report.comments.alreadyThere++;
      continue;
    }
    const { values, errors } = validateCommentInput({ username: comment.author, comment: comment.text });
    if (hasErrors(errors)) {
      run.report.comments.refused++;
      line.notes.push(`comment ${comment.sourceId} by ${comment.author}: ${summarizeErrors(errors)}`);
      continue;
    }
    const saved = await insertComment(db, {
      blogId,
      username: values.username,
      comment: values.comment,
      contact: null,
      status: comment.status,
      heldReason: comment.status === 'approved' ? null : 'imported',
      createdAt: comment.createdAt,
    });
    await saveImportSource(db, {
      source: run.site.source,
      kind: 'comment',
      source_id: comment.sourceId,
      target_id: saved.id,
      target_url: null,
      hash: '',
    });
    run.report.comments.imported++;
  }
}

export async function runImport(target: ImportTarget, site: ImportSite, options: ImportOptions): Promise<ImportOutcome> {
  const report = emptyReport(site.format, site.source, options.dryRun);
  const run: Run = {
    target,
    site,
    options,
    report,
    files: createImportFiles({
      db: target.db,
      uploadsDir: target.uploadsDir,
      source: site.source,
      files: options.files,
      dryRun: options.dryRun,
    }),
    posts: await listImportSources(target.db, site.source, 'post'),
    comments: await listImportSources(target.db, site.source, 'comment'),
    tags: [],
    takenDown: [],
  };
  for (const item of site.skipped)
    report.skipped.push({ sourceId: item.sourceId, title: item.title, reason: item.reason, notes: [] });
  let done = 0;
  let yieldedAt = performance.now();
  for (const article of site.articles) {
    await importArticle(run, article);
    options.onProgress?.(++done, site.articles.length);
    // Each article's writes run without a break (the driver is synchronous); between articles the
    // process's readers get their turn, and the admin's progress its way out.
    if (performance.now() - yieldedAt > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      yieldedAt = performance.now();
    }
  }
  for (const page of site.infoPages ?? []) await importInfoPage(run, page);
  if (report.categoriesCreated.length) run.tags.push(tag.nav, tag.list);
  return { report, tags: run.tags, takenDown: run.takenDown };
}
