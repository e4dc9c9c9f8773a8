import type { Generated, Selectable } from 'kysely';
import type { Db } from '../client.ts';
import { isMentionedIn, UPLOAD_MENTIONS, type UploadPlace } from './mentions.ts';

/**
 * The uploads table (db/migrations/0002_uploads.ts). Declared here rather than in schema.ts so
 * the table type travels with the only code that queries it; `$extendTables` adds it to the db type.
 */
export interface UploadsTable {
  id: Generated<number>;
  kind: 'image' | 'pdf';
  /** Relative to UPLOADS_DIR with forward slashes, e.g. `pdfs/<id>.pdf`. */
  path: string;
  original_name: string;
  mime: string;
  size: number;
  created_at: string;
}

export type Upload = Selectable<UploadsTable>;

export interface NewUpload {
  kind: 'image' | 'pdf';
  path: string;
  originalName: string;
  mime: string;
  size: number;
}

const withUploads = (db: Db) => db.$extendTables<{ uploads: UploadsTable }>();

export async function insertUploads(db: Db, uploads: NewUpload[], now = new Date().toISOString()): Promise<void> {
  if (uploads.length === 0) return;
  await withUploads(db)
    .insertInto('uploads')
    .values(
      uploads.map((u) => ({
        kind: u.kind,
        path: u.path,
        original_name: u.originalName,
        mime: u.mime,
        size: u.size,
        created_at: now,
      })),
    )
    .execute();
}

/**
 * The record of one stored file, by its path relative to UPLOADS_DIR (`pdfs/<id>.pdf`; a leading
 * slash or `/uploads/` prefix is accepted too). The file server uses it for the download name.
 */
export function findUploadByPath(db: Db, relativePath: string): Promise<Upload | undefined> {
  const key = relativePath.replace(/^\/?(uploads\/)?/, '');
  return withUploads(db).selectFrom('uploads').selectAll().where('path', '=', key).executeTakeFirst() as Promise<
    Upload | undefined
  >;
}

export function findUploadsByPaths(db: Db, paths: string[]): Promise<Upload[]> {
  if (paths.length === 0) return Promise.resolve([]);
  return withUploads(db).selectFrom('uploads').selectAll().where('path', 'in', paths).execute() as Promise<Upload[]>;
}

export async function deleteUploadsByPaths(db: Db, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  await withUploads(db).deleteFrom('uploads').where('path', 'in', paths).execute();
}

const EVERY_PLACE = Object.keys(UPLOAD_MENTIONS) as UploadPlace[];

/**
 * Whether any blog (featured image, PDF, or anywhere in its content), kept revision, carousel
 * slide, site setting (logo, icon, share image), About/Contact page or kept revision of one
 * still mentions the text, e.g. `/uploads/images/<id>-w`.
 */
export function isUploadReferenced(db: Db, needle: string): Promise<boolean> {
  return isMentionedIn(db, needle, EVERY_PLACE);
}
