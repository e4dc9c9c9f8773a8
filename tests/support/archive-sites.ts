import path from 'node:path';
import { afterEach } from 'vitest';
import type { Db } from '../../src/server/db/client.ts';
import { readSiteArchive, restoreSiteArchive } from '../../src/server/export/site-restore.ts';
import { openMigratedDatabase } from './db.ts';
import { trackTempDirs } from './temp-dirs.ts';

/** A migrated in-memory site with its own uploads folder, for the export and restore tests. */
export interface ArchiveSite {
  db: Db;
  close: () => void;
  uploadsDir: string;
}

/**
 * Registers the clean-up for the calling test file and returns a maker of empty sites: every site
 * made during a test is closed after it, its uploads folder removed.
 */
export function trackArchiveSites(prefix: string): () => Promise<ArchiveSite> {
  const tempDir = trackTempDirs(prefix);
  const sites: ArchiveSite[] = [];
  afterEach(() => {
    for (const site of sites.splice(0)) site.close();
  });
  return async () => {
    const { db, close } = await openMigratedDatabase();
    const site = { db, close, uploadsDir: path.join(tempDir(), 'uploads') };
    sites.push(site);
    return site;
  };
}

/** Reads the archive `file` into `site` (a dry run writes nothing). */
export async function restoreInto(site: ArchiveSite, file: string, dryRun = false) {
  const archive = await readSiteArchive(file);
  try {
    return await restoreSiteArchive({ db: site.db, uploadsDir: site.uploadsDir }, archive, { dryRun });
  } finally {
    archive.dispose();
  }
}
