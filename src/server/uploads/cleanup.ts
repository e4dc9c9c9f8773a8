import type { Db } from '../db/client.ts';
import { deleteUploadsByPaths, findUploadsByPaths, isUploadReferenced } from '../db/repositories/uploads.ts';
import { IMAGE_WIDTHS } from '../../shared/images.ts';
import { absoluteUploadPath, removeQuietly } from './files.ts';

/**
 * Files of a deleted article or slide, or ones an edit replaced, are removed once nothing else
 * refers to them: no blog's image, PDF, content or editor source and no slide. Only files this
 * site recorded as uploads are touched (the demo content and external links never are). Called
 * after the change committed; failures are logged, since a stray file harms nothing.
 */

interface UploadGroup {
  /** What a reference to any file of the group contains. */
  needle: string;
  paths: string[];
}

const IMAGE = /\/uploads\/images\/([a-z0-9]+)-w\d+\.webp/g;
const PDF = /\/uploads\/pdfs\/([a-z0-9]+)\.pdf/g;

/** The upload groups mentioned in some text: all widths of an image count as one. */
export function findUploadGroups(texts: Array<string | null | undefined>): UploadGroup[] {
  const groups = new Map<string, UploadGroup>();
  for (const text of texts) {
    if (!text) continue;
    for (const match of text.matchAll(IMAGE)) {
      const needle = `/uploads/images/${match[1]}-w`;
      groups.set(needle, { needle, paths: IMAGE_WIDTHS.map((w) => `images/${match[1]}-w${w}.webp`) });
    }
    for (const match of text.matchAll(PDF)) {
      const needle = `/uploads/pdfs/${match[1]}.pdf`;
      groups.set(needle, { needle, paths: [`pdfs/${match[1]}.pdf`] });
    }
  }
  return [...groups.values()];
}

export async function removeUnreferencedUploads(db: Db, uploadsDir: string, texts: Array<string | null | undefined>): Promise<string[]> {
  const removed: string[] = [];
  try {
    for (const group of findUploadGroups(texts)) {
      const known = await findUploadsByPaths(db, group.paths);
      if (known.length === 0 || (await isUploadReferenced(db, group.needle))) continue;
      const paths = known.map((u) => u.path);
      await deleteUploadsByPaths(db, paths);
      await removeQuietly(paths.map((p) => absoluteUploadPath(uploadsDir, p)));
      removed.push(...paths);
    }
  } catch (error) {
    console.error('[uploads] cleanup failed:', error);
  }
  return removed;
}
