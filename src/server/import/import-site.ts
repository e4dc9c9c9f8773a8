import type { AppContext } from '../context.ts';
import type { PublicUser } from '../db/repositories/users.ts';
import { readImportFile } from './import-file.ts';
import { runImport, type ImportOutcome } from './import-run.ts';
import type { UploadSource } from './upload-source.ts';

/**
 * An import run by the server (the admin's Import screen): the file read and checked, each
 * article written, then the pages showing them refreshed like any save's.
 */
export async function importIntoSite(
  app: AppContext,
  admin: PublicUser,
  path: string,
  options: { dryRun: boolean; files: UploadSource | null; onProgress?: (done: number, total: number) => void },
): Promise<ImportOutcome & { live_ms: number }> {
  const startedAt = performance.now();
  const site = await readImportFile(path);
  const outcome = await runImport(
    { db: app.db, uploadsDir: app.config.uploadsDir, revisionsKeep: app.config.revisionsKeep },
    site,
    { ...options, saver: admin },
  );
  if (options.dryRun || outcome.tags.length === 0) return { ...outcome, live_ms: 0 };
  app.publishScheduler?.wake();
  const { live_ms } = await app.pageCache.invalidate(outcome.tags, startedAt, outcome.takenDown);
  return { ...outcome, live_ms };
}
