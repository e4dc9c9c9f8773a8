import { articleHref } from '../../shared/site-map/paths.ts';
/** What an import did, item by item: the report printed by `npm run import` and shown in the admin. */

export interface ReportLine {
  /** The item's id in the old site. */
  sourceId: string;
  title: string;
  /** The article here, once written. */
  id?: number;
  reason?: string;
  notes: string[];
}

export interface ImportReport {
  format: string;
  source: string;
  dryRun: boolean;
  imported: ReportLine[];
  updated: ReportLine[];
  /** Already here as the export has them (a second run): nothing written. */
  unchanged: ReportLine[];
  /** Items that are not articles here (pages, items without a date), each with why. */
  skipped: ReportLine[];
  failed: ReportLine[];
  comments: { imported: number; alreadyThere: number; refused: number };
  categoriesCreated: string[];
  redirects: number;
  /** What became of the old site's About and Contact pages. */
  infoPages: InfoPageLine[];
}

export interface InfoPageLine {
  slug: 'about' | 'contact';
  /** The old page's title. */
  title: string;
  outcome: 'imported' | 'updated' | 'unchanged' | 'kept';
  reason?: string;
}

export function emptyReport(format: string, source: string, dryRun: boolean): ImportReport {
  return {
    format,
    source,
    dryRun,
    imported: [],
    updated: [],
    unchanged: [],
    skipped: [],
    failed: [],
    comments: { imported: 0, alreadyThere: 0, refused: 0 },
    categoriesCreated: [],
    redirects: 0,
    infoPages: [],
  };
}

const line = (l: ReportLine, withReason: boolean) =>
  `  - ${l.title}${l.id ? ` (${articleHref(l.id)})` : ''}${withReason && l.reason ? `: ${l.reason}` : ''}${l.notes.length ? `\n      ${l.notes.join('\n      ')}` : ''}`;

/** The report as text for a terminal: counts first, then each item that needs a look. */
export function formatReport(report: ImportReport): string {
  const head = report.dryRun ? 'Dry run (nothing was written)' : 'Import finished';
  const out = [
    `${head}: ${report.format} export of ${report.source.replace(/^\w+:/, '') || 'an unnamed site'}`,
    `  imported ${report.imported.length}, updated ${report.updated.length}, unchanged ${report.unchanged.length}, skipped ${report.skipped.length}, failed ${report.failed.length}`,
    `  comments: ${report.comments.imported} imported, ${report.comments.alreadyThere} already here, ${report.comments.refused} refused`,
    `  categories created: ${report.categoriesCreated.length ? report.categoriesCreated.join(', ') : 'none'}; old addresses redirected: ${report.redirects}`,
  ];
  for (const page of report.infoPages)
    out.push(
      `  ${page.slug === 'about' ? 'About' : 'Contact'} page from "${page.title}": ${page.outcome}${page.reason ? ` (${page.reason})` : ''}`,
    );
  if (report.failed.length) out.push('Failed:', ...report.failed.map((l) => line(l, true)));
  if (report.skipped.length) out.push('Skipped:', ...report.skipped.map((l) => line(l, true)));
  const noted = [...report.imported, ...report.updated].filter((l) => l.notes.length);
  if (noted.length) out.push('Notes:', ...noted.map((l) => line(l, false)));
  return out.join('\n');
}
