import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import {
  ACCOUNT_COLUMNS,
  REPLACED_TABLES,
  SITE_TABLES,
  clearTable,
  countTableRows,
  insertTableRows,
  readTableColumns,
  type SiteRow,
  type SiteTable,
} from '../db/repositories/site-archive.ts';
import { findBlogById, indexBlog } from '../db/repositories/blogs.ts';
import { blogIsPublic } from '../db/repositories/visibility.ts';
import { htmlToText, sanitizeArticleHtml } from '../content/sanitize.ts';
import { absoluteUploadPath } from '../uploads/files.ts';
import { AppError } from '../errors.ts';
import { IMPORT_LIMITS, checkJsonDepth } from '../import/limits.ts';
import { DOCUMENT_NAME, UPLOADS_PREFIX, documentProblem, type SiteDocument } from './archive-format.ts';
import { ArchiveError, isPlainRelativeName, readTarGz } from './tar-archive.ts';

/**
 * Reading an export archive back (`npm run import -- site-export.tar.gz`): into an empty site
 * only, exactly as exported, ids included, so every address stays what it was. The archive is
 * read and checked whole first (its document, every file against its size and SHA-256, into a
 * folder of its own), so a damaged or hostile archive is refused with nothing written. Then the
 * files go into the uploads folder and the rows into the database in one transaction; if that
 * fails, the files written are removed again.
 */

export const ARCHIVE_LIMITS = {
  /** Bytes the archive may unpack to: the document and every upload. */
  totalBytes: 8 * 1024 * 1024 * 1024,
  entries: 200_000,
} as const;

/**
 * The HTML readers see is sanitized on the way in, as the editor does: an archive is a file anyone
 * could have written. Revisions are kept as they were (the About page's built-in text is stored
 * unsanitized by the editor too); restoring one sanitizes it again, as it always does.
 */
const HTML_COLUMNS: Partial<Record<SiteTable, string[]>> = {
  blogs: ['content'],
  info_pages: ['content'],
};

export interface ReadArchive {
  document: SiteDocument;
  /** The folder the uploads were unpacked into (removed by `dispose`). */
  staging: string;
  dispose: () => void;
}

const refuse = (message: string) => new AppError('unprocessable', message);

/** True when the file starts as gzip does (an export archive rather than a WXR or Ghost file). */
export function looksLikeArchive(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return fs.readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

export async function readSiteArchive(file: string): Promise<ReadArchive> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'site-archive-'));
  const dispose = () => fs.rmSync(staging, { recursive: true, force: true });
  try {
    let json: Buffer | null = null;
    const staged = new Map<string, { size: number; sha256: string }>();
    await readTarGz(file, ARCHIVE_LIMITS, async (name, body) => {
      if (name === DOCUMENT_NAME) {
        if (json) throw new ArchiveError(`${DOCUMENT_NAME} is in the archive twice.`);
        if (body.length > IMPORT_LIMITS.fileBytes)
          throw new ArchiveError(`${DOCUMENT_NAME} is larger than ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB.`);
        json = body;
        return;
      }
      const relative = name.startsWith(UPLOADS_PREFIX) ? name.slice(UPLOADS_PREFIX.length) : null;
      if (relative === null || !isPlainRelativeName(relative))
        throw new ArchiveError(`The archive holds a file this site does not use: ${JSON.stringify(name)}.`);
      if (staged.has(relative)) throw new ArchiveError(`${name} is in the archive twice.`);
      const target = path.join(staging, ...relative.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, body, { flag: 'wx' });
      staged.set(relative, { size: body.length, sha256: crypto.createHash('sha256').update(body).digest('hex') });
    });
    if (!json) throw new ArchiveError(`The archive has no ${DOCUMENT_NAME}.`);
    const text = (json as Buffer).toString('utf8');
    checkJsonDepth(text);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new ArchiveError(`${DOCUMENT_NAME} is not valid JSON: ${(error as Error).message}`);
    }
    const problem = documentProblem(parsed);
    if (problem) throw new ArchiveError(problem);
    const document = parsed as SiteDocument;
    for (const table of SITE_TABLES) document.tables[table] ??= [];
    const listed = new Set<string>();
    for (const entry of document.files) {
      if (!isPlainRelativeName(entry.path))
        throw new ArchiveError(`The file list names a path outside the uploads folder: ${JSON.stringify(entry.path)}.`);
      const found = staged.get(entry.path);
      if (!found) throw new ArchiveError(`uploads/${entry.path} is listed but not in the archive.`);
      if (found.size !== entry.size || found.sha256 !== entry.sha256)
        throw new ArchiveError(`uploads/${entry.path} is damaged (its size or SHA-256 differs from the list).`);
      listed.add(entry.path);
    }
    for (const relative of staged.keys())
      if (!listed.has(relative)) throw new ArchiveError(`uploads/${relative} is in the archive but not in its file list.`);
    return { document, staging, dispose };
  } catch (error) {
    dispose();
    if (error instanceof ArchiveError) throw refuse(error.message);
    if (error instanceof AppError) throw refuse(error.message);
    if ((error as NodeJS.ErrnoException).code?.startsWith('Z_'))
      throw refuse('it is not a gzip-compressed archive, or it is damaged.');
    throw error;
  }
}

export interface RestoreSummary {
  tables: Record<SiteTable, number>;
  files: number;
  /** Articles readers can see, written to the search index. */
  indexed: number;
}

/** What the target already has that an export would collide with; empty for an empty site. */
export async function siteContentPresent(db: Db): Promise<string[]> {
  const present: string[] = [];
  for (const table of SITE_TABLES) {
    if (REPLACED_TABLES.includes(table)) continue;
    const count = await countTableRows(db, table);
    if (count > 0) present.push(`${count} ${table.replace(/_/g, ' ')}`);
  }
  return present;
}

async function checkColumns(db: Db, document: SiteDocument): Promise<void> {
  for (const table of SITE_TABLES) {
    const known = new Set(await readTableColumns(db, table));
    for (const row of document.tables[table])
      for (const column of Object.keys(row))
        if (!known.has(column))
          throw refuse(
            `its ${table} rows have a column this site does not have (${column}): it was made by a newer version. Update this site first.`,
          );
  }
}

function rowsToWrite(table: SiteTable, rows: SiteRow[]): SiteRow[] {
  const accounts = ACCOUNT_COLUMNS[table] ?? [];
  const html = HTML_COLUMNS[table] ?? [];
  if (!accounts.length && !html.length) return rows;
  return rows.map((row) => {
    const copy = { ...row };
    for (const column of accounts) if (column in copy) copy[column] = null;
    for (const column of html) if (typeof copy[column] === 'string') copy[column] = sanitizeArticleHtml(copy[column]);
    return copy;
  });
}

/**
 * Writes a read archive into the site. `dryRun` checks that it would go in (an empty site, known
 * columns, no file in the way) and writes nothing.
 */
export async function restoreSiteArchive(
  target: { db: Db; uploadsDir: string },
  archive: ReadArchive,
  options: { dryRun: boolean },
): Promise<RestoreSummary> {
  const { db, uploadsDir } = target;
  const { document } = archive;
  const present = await siteContentPresent(db);
  if (present.length)
    throw refuse(
      `an export is read back into an empty site only, and this one has ${present.join(', ')}. Use a new database (DATABASE_PATH), or remove the demo content first.`,
    );
  await checkColumns(db, document);
  const targets = document.files.map((file) => ({ file, to: absoluteUploadPath(uploadsDir, file.path) }));
  for (const { file, to } of targets) if (fs.existsSync(to)) throw refuse(`the uploads folder already has ${file.path}.`);
  const summary: RestoreSummary = {
    tables: Object.fromEntries(SITE_TABLES.map((t) => [t, document.tables[t].length])) as Record<SiteTable, number>,
    files: document.files.length,
    indexed: 0,
  };
  if (options.dryRun) return summary;

  const written: string[] = [];
  try {
    // Files first, as every upload here: no row ever names a file that is not there yet.
    for (const { file, to } of targets) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(path.join(archive.staging, ...file.path.split('/')), to, fs.constants.COPYFILE_EXCL);
      written.push(to);
    }
    summary.indexed = await db.transaction().execute(async (trx) => {
      for (const table of REPLACED_TABLES) await clearTable(trx, table);
      for (const table of SITE_TABLES) await insertTableRows(trx, table, rowsToWrite(table, document.tables[table]));
      // The search index holds what readers may see, made from the articles as they are now.
      let indexed = 0;
      const now = new Date().toISOString();
      for (const row of document.tables.blogs) {
        const blog = await findBlogById(trx, Number(row.id));
        if (!blog || !blogIsPublic(blog, now)) continue;
        await indexBlog(trx, blog, htmlToText(blog.content));
        indexed++;
      }
      return indexed;
    });
  } catch (error) {
    for (const file of written) fs.rmSync(file, { force: true });
    throw error;
  }
  return summary;
}
