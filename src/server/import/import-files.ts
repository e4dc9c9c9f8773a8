import crypto from 'node:crypto';
import type { Db } from '../db/client.ts';
import { findImportSource, saveImportSource } from '../db/repositories/import-sources.ts';
import { detectImageFormat, storeImageUpload } from '../uploads/images.ts';
import { relativeUploadPath, type UploadSource } from './upload-source.ts';

/**
 * The old site's images brought here: each file found in the uploads source is re-encoded and
 * stored like an image the editor uploads (uploads/images.ts), once per source whatever the
 * number of runs or articles using it (kept in `import_sources` as kind `upload`).
 */

export interface ImportFilesOptions {
  db: Db;
  uploadsDir: string;
  source: string;
  files: UploadSource | null;
  dryRun: boolean;
}

/** What became of one old address: its new address, or why there is none. */
export type FileResult = { url: string } | { missing: string };

// WordPress keeps resized copies beside the original (`photo-300x200.jpg`); a folder may hold only the original.
const SIZED = /-\d+x\d+(\.[a-z0-9]+)$/i;

export function createImportFiles(options: ImportFilesOptions) {
  const done = new Map<string, Promise<FileResult>>();

  async function bring(relative: string): Promise<FileResult> {
    const known = await findImportSource(options.db, { source: options.source, kind: 'upload', source_id: relative });
    if (known?.target_url) return { url: known.target_url };
    if (!options.files) return { missing: `${relative}: no uploads folder was given` };
    const bytes = await options.files.read(relative);
    if (!bytes && SIZED.test(relative)) return viaOriginal(relative, relative.replace(SIZED, '$1'));
    if (!bytes) return { missing: `${relative}: not in the uploads folder` };
    if (!detectImageFormat(bytes)) return { missing: `${relative}: not a JPEG, PNG, GIF or WebP image` };
    if (options.dryRun) return { url: `/uploads/(dry run)/${relative}` };
    try {
      const stored = await storeImageUpload(options.db, options.uploadsDir, bytes, relative.split('/').pop()!);
      const hash = crypto.createHash('sha256').update(bytes).digest('hex');
      await saveImportSource(options.db, {
        source: options.source,
        kind: 'upload',
        source_id: relative,
        target_id: null,
        target_url: stored.url,
        hash,
      });
      return { url: stored.url };
    } catch (error) {
      return { missing: `${relative}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  // The resized copy's address shares the original's stored copy, and is kept too, so a later run
  // without the folder still finds it: otherwise each size named in the text stores the original again.
  async function viaOriginal(relative: string, original: string): Promise<FileResult> {
    const result = await bringOnce(original);
    if (!('url' in result)) return { missing: `${relative}: not in the uploads folder` };
    if (!options.dryRun) {
      const stored = await findImportSource(options.db, { source: options.source, kind: 'upload', source_id: original });
      await saveImportSource(options.db, {
        source: options.source,
        kind: 'upload',
        source_id: relative,
        target_id: null,
        target_url: result.url,
        hash: stored?.hash ?? '',
      });
    }
    return result;
  }

  function bringOnce(relative: string): Promise<FileResult> {
    let result = done.get(relative);
    if (!result) {
      result = bring(relative);
      done.set(relative, result);
    }
    return result;
  }

  return {
    /** The stored address for an old one; the same old address is brought once per run. */
    resolve(address: string): Promise<FileResult> {
      const relative = relativeUploadPath(address);
      if (!relative) return Promise.resolve({ missing: `${address}: not a file address` });
      return bringOnce(relative);
    },
  };
}

export type ImportFiles = ReturnType<typeof createImportFiles>;
