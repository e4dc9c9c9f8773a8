import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import {
  SITE_TABLES,
  readAppliedMigrations,
  readTableRows,
  type SiteRow,
  type SiteTable,
} from '../db/repositories/site-archive.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  DOCUMENT_NAME,
  UPLOADS_PREFIX,
  type ArchiveFile,
  type SiteDocument,
} from './archive-format.ts';
import { writeTarGz, type TarEntry } from './tar-archive.ts';

/**
 * `exportSite`: the whole site as one archive (`archive-format.ts`) while it keeps serving. The
 * rows are read in one transaction (one snapshot: in WAL mode the server's writes go on), then
 * the uploads folder: a file is written before any row names it and never rewritten, so every
 * file the rows name is already there.
 */

export interface ExportSummary {
  file: string;
  tables: Record<SiteTable, number>;
  files: number;
  fileBytes: number;
  archiveBytes: number;
}

/** Every regular file below the folder, `/`-separated; dot-named entries (unfinished writes) left out. */
export function listUploadFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk('');
  return found.sort();
}

async function describe(dir: string, relative: string): Promise<ArchiveFile> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(path.join(dir, ...relative.split('/'))) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { path: relative, size, sha256: hash.digest('hex') };
}

export async function readSiteDocument(db: Db, uploadsDir: string, origin: string, now = new Date()): Promise<SiteDocument> {
  const tables = await db.transaction().execute(async (trx) => {
    const read = {} as Record<SiteTable, SiteRow[]>;
    for (const table of SITE_TABLES) read[table] = await readTableRows(trx, table);
    return read;
  });
  const files: ArchiveFile[] = [];
  for (const relative of listUploadFiles(uploadsDir)) files.push(await describe(uploadsDir, relative));
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exported_at: now.toISOString(),
    origin,
    migrations: await readAppliedMigrations(db),
    tables,
    files,
  };
}

export async function exportSite(options: { db: Db; uploadsDir: string; origin: string; out: string }): Promise<ExportSummary> {
  const document = await readSiteDocument(options.db, options.uploadsDir, options.origin);
  const json = Buffer.from(JSON.stringify(document, null, 1));
  function* entries(): Generator<TarEntry> {
    yield { name: DOCUMENT_NAME, size: json.length, body: json };
    for (const file of document.files)
      yield {
        name: UPLOADS_PREFIX + file.path,
        size: file.size,
        body: () => fs.createReadStream(path.join(options.uploadsDir, ...file.path.split('/'))),
      };
  }
  await writeTarGz(options.out, entries());
  return {
    file: options.out,
    tables: Object.fromEntries(SITE_TABLES.map((t) => [t, document.tables[t].length])) as Record<SiteTable, number>,
    files: document.files.length,
    fileBytes: document.files.reduce((sum, f) => sum + f.size, 0),
    archiveBytes: fs.statSync(options.out).size,
  };
}
