import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import { importIntoSite } from '../import/import-site.ts';
import { tag } from '../page-store/site-tags.ts';
import type { ImportAnswer } from '../../shared/api-types.ts';
import { exportMarkdown } from './markdown-export.ts';
import { exportSite } from './site-export.ts';
import { looksLikeArchive, readSiteArchive, restoreSiteArchive } from './site-restore.ts';

/**
 * The admin's Import screen and Settings' export buttons: the same work as `npm run import` and
 * `npm run export`, through a temporary file, with the pages refreshed like any save's.
 */

const temporaryFile = (name: string) => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'site-transfer-')), name);
const removeTemporary = (file: string) => fs.rmSync(path.dirname(file), { recursive: true, force: true });

export interface Download {
  file: string;
  name: string;
  size: number;
  dispose: () => void;
}

/** The site's export archive (or its Markdown export) in a temporary file, for the browser to download. */
export async function exportForDownload(app: AppContext, format: 'archive' | 'markdown', now = new Date()): Promise<Download> {
  const name = `site-${format === 'markdown' ? 'markdown' : 'export'}-${now.toISOString().slice(0, 10)}.tar.gz`;
  const file = temporaryFile(name);
  try {
    const options = { db: app.db, uploadsDir: app.config.uploadsDir, out: file };
    if (format === 'markdown') await exportMarkdown(options);
    else await exportSite({ ...options, origin: app.config.publicOrigin });
    return { file, name, size: fs.statSync(file).size, dispose: () => removeTemporary(file) };
  } catch (error) {
    removeTemporary(file);
    throw error;
  }
}

/** Tags of every stored page: an archive read back changes the whole site. */
const WHOLE_SITE = [tag.settings, tag.list, tag.nav, tag.carousel, tag.infoPages, tag.downloads, tag.topViewed, tag.updates];

/** An uploaded WordPress, Ghost or export-archive file, imported (or, with `dryRun`, only checked). */
export async function importUploadedFile(
  app: AppContext,
  admin: PublicUser,
  bytes: Uint8Array,
  dryRun: boolean,
  onProgress?: (done: number, total: number) => void,
): Promise<ImportAnswer> {
  const file = temporaryFile('upload');
  try {
    fs.writeFileSync(file, bytes);
    if (!looksLikeArchive(file)) {
      const { report, live_ms } = await importIntoSite(app, admin, file, {
        dryRun,
        files: null,
        ...(onProgress ? { onProgress } : {}),
      });
      return { kind: 'import', report, live_ms };
    }
    const startedAt = performance.now();
    const archive = await readSiteArchive(file);
    try {
      const summary = await restoreSiteArchive({ db: app.db, uploadsDir: app.config.uploadsDir }, archive, { dryRun });
      const live_ms = dryRun ? 0 : (await app.pageCache.invalidate(WHOLE_SITE, startedAt, [])).live_ms;
      return { kind: 'archive', dryRun, ...summary, live_ms };
    } finally {
      archive.dispose();
    }
  } finally {
    removeTemporary(file);
  }
}
