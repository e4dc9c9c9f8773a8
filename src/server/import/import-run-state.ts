// What one import run holds while it writes: where it writes, how it was asked, the report it
// fills and the pages it reached. A module of its own so the parts of a run (articles, About and
// Contact) share it without importing each other.
import type { Db } from '../db/client.ts';
import type { ImportSourceRow } from '../db/repositories/import-sources.ts';
import type { Saver } from '../content/blog-revisions.ts';
import type { PageTag } from '../page-store/site-tags.ts';
import type { ImportFiles } from './import-files.ts';
import type { ImportSite } from './import-types.ts';
import type { ImportReport } from './import-report.ts';
import type { UploadSource } from './upload-source.ts';

export interface ImportTarget {
  db: Db;
  uploadsDir: string;
  revisionsKeep: number;
}

export interface ImportOptions {
  dryRun: boolean;
  files: UploadSource | null;
  /** Who the revisions name: the admin, or the command line's own name. */
  saver: Saver;
  onProgress?: (done: number, total: number) => void;
}

export interface ImportOutcome {
  report: ImportReport;
  /** The pages the writes reached, and those showing something the import took down. */
  tags: PageTag[];
  takenDown: PageTag[];
}

export interface Run {
  target: ImportTarget;
  site: ImportSite;
  options: ImportOptions;
  report: ImportReport;
  files: ImportFiles;
  posts: Map<string, ImportSourceRow>;
  comments: Map<string, ImportSourceRow>;
  tags: PageTag[];
  takenDown: PageTag[];
}
