// What an import or an export archive read back answers.
import type { LiveTime } from './answers.ts';

/** One item of an import's report (src/server/import/import-report.ts). */
export interface ImportReportLine {
  /** The item's id in the old site. */
  sourceId: string;
  title: string;
  /** The article here, once written. */
  id?: number;
  reason?: string;
  notes: string[];
}

export interface ImportReportDto {
  format: string;
  source: string;
  dryRun: boolean;
  imported: ImportReportLine[];
  updated: ImportReportLine[];
  /** Already here as the export has them (a second run): nothing written. */
  unchanged: ImportReportLine[];
  /** Items the export has that are not articles here (pages, items without a date), with why. */
  skipped: ImportReportLine[];
  failed: ImportReportLine[];
  comments: { imported: number; alreadyThere: number; refused: number };
  categoriesCreated: string[];
  redirects: number;
  infoPages: Array<{
    slug: 'about' | 'contact';
    title: string;
    outcome: 'imported' | 'updated' | 'unchanged' | 'kept';
    reason?: string;
  }>;
}

/**
 * POST /api/admin/import: a WordPress or Ghost file's report, or what an export archive read back
 * into the (empty) site brought: rows per table, uploaded files, articles indexed for search.
 */
export type ImportAnswer = LiveTime &
  (
    | { kind: 'import'; report: ImportReportDto }
    | { kind: 'archive'; dryRun: boolean; tables: Record<string, number>; files: number; indexed: number }
  );
