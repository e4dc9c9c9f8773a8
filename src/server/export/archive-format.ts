import { SITE_TABLES, type SiteRow, type SiteTable } from '../db/repositories/site-archive.ts';

/**
 * The export archive (docs/export.md): a .tar.gz holding `site.json` (this document) and the
 * uploads under `uploads/`, at the same paths as in the uploads folder. The version goes up when
 * a change would make an older site misread the document; a new column is not such a change (an
 * older site refuses a column it lacks, by name).
 */

export const ARCHIVE_FORMAT = 'study-site-export';
export const ARCHIVE_VERSION = 1;
export const DOCUMENT_NAME = 'site.json';
export const UPLOADS_PREFIX = 'uploads/';

export interface ArchiveFile {
  /** Relative to the uploads folder, `/` between segments. */
  path: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
}

export interface SiteDocument {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  exported_at: string;
  /** The address the site had (PUBLIC_ORIGIN), for the record. */
  origin: string;
  /** The database migrations the site had applied, for the record. */
  migrations: string[];
  /** Each table's rows, every column, in the order they were written. */
  tables: Record<SiteTable, SiteRow[]>;
  files: ArchiveFile[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCell = (value: unknown) =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/** Checks a parsed site.json's shape; the reason it is not one, or null. */
export function documentProblem(value: unknown): string | null {
  if (!isRecord(value) || value.format !== ARCHIVE_FORMAT) return `${DOCUMENT_NAME} is not an export of this kind of site.`;
  if (typeof value.version !== 'number' || !Number.isInteger(value.version) || value.version < 1)
    return `${DOCUMENT_NAME} has no version.`;
  if (value.version > ARCHIVE_VERSION)
    return `The archive was made by a newer version of the site (format ${value.version}; this one reads up to ${ARCHIVE_VERSION}). Update this site first.`;
  if (!isRecord(value.tables)) return `${DOCUMENT_NAME} has no tables.`;
  for (const [name, rows] of Object.entries(value.tables)) {
    if (!(SITE_TABLES as readonly string[]).includes(name))
      return `${DOCUMENT_NAME} has a table this site does not know: ${name}.`;
    if (!Array.isArray(rows)) return `${DOCUMENT_NAME}: ${name} is not a list of rows.`;
    for (const row of rows)
      if (!isRecord(row) || !Object.values(row).every(isCell)) return `${DOCUMENT_NAME}: a row of ${name} is not plain values.`;
  }
  if (!Array.isArray(value.files)) return `${DOCUMENT_NAME} has no file list.`;
  for (const file of value.files)
    if (
      !isRecord(file) ||
      typeof file.path !== 'string' ||
      typeof file.size !== 'number' ||
      typeof file.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(file.sha256)
    )
      return `${DOCUMENT_NAME}: a file entry is not a path, size and SHA-256.`;
  return null;
}
