import fs from 'node:fs/promises';
import { IMPORT_LIMITS, IMPORT_MESSAGES, refused, tooLarge } from './limits.ts';
import type { ImportSite } from './import-types.ts';
import { mapWxr } from './wxr-map.ts';
import { readWxrFile } from './wxr-parser.ts';
import { mapGhost, parseGhostJson } from './ghost-map.ts';
import { readMarkdownFolder } from './markdown-folder.ts';

/**
 * Reads an import file into the one shape `import-run.ts` writes, choosing the format by its
 * first character: `<` a WordPress export, `{` a Ghost export; a folder is a Markdown site. Everything is read and checked
 * before anything is written: a refused file writes nothing.
 */
export async function readImportFile(path: string, onProgress?: (bytes: number, total: number) => void): Promise<ImportSite> {
  // A folder: a static site's Markdown (Hugo, Jekyll, AstroPaper).
  if ((await fs.stat(path).catch(() => null))?.isDirectory()) return readMarkdownFolder(path);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, 'r');
  } catch (error) {
    throw refused(IMPORT_MESSAGES.unreadable((error as Error).message));
  }
  let head: string;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refused(IMPORT_MESSAGES.unreadable(`${path} is not a file`));
    if (stat.size > IMPORT_LIMITS.fileBytes) throw tooLarge();
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64), 0, 64, 0);
    head = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
  } finally {
    await handle.close();
  }
  if (head.startsWith('<')) return mapWxr(await readWxrFile(path, onProgress));
  if (head.startsWith('{')) return mapGhost(parseGhostJson(await fs.readFile(path, 'utf8')));
  throw refused(IMPORT_MESSAGES.unknownFormat);
}
