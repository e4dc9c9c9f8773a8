import { useState, type SubmitEvent } from 'react';
import { statedMessageOf } from '../../client/api.ts';
import { IMPORT_MAX_BYTES, sendImportFile } from '../../client/import-api.ts';
import type { ImportAnswer, ImportReportDto, ImportReportLine } from '../../shared/api-types.ts';
import { adminEditHref } from '../../shared/site-map/paths.ts';

type Stage = { at: 'idle' } | { at: 'sending'; sent: number; total: number } | { at: 'working'; done?: number; total?: number };

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function Lines({ title, lines, open = false }: { title: string; lines: ImportReportLine[]; open?: boolean }) {
  if (lines.length === 0) return null;
  return (
    <details open={open}>
      <summary>
        {title} ({lines.length})
      </summary>
      <ul className="import-lines">
        {lines.map((line) => (
          <li key={line.sourceId}>
            {line.id ? (
              <a href={adminEditHref(line.id)}>{line.title || '(no title)'}</a>
            ) : (
              <span>{line.title || '(no title)'}</span>
            )}
            {line.reason && <span>: {line.reason}</span>}
            {line.notes.length > 0 && (
              <ul>
                {line.notes.map((note, i) => (
                  <li key={i}>{note}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

function Report({ report }: { report: ImportReportDto }) {
  const format = report.format === 'wordpress' ? 'WordPress' : report.format === 'ghost' ? 'Ghost' : report.format;
  const done = report.dryRun ? 'would be' : '';
  return (
    <>
      <p>
        {report.dryRun ? <strong>Checked only: nothing was written.</strong> : <strong>Imported.</strong>} From the {format}{' '}
        export:
      </p>
      <ul className="import-counts">
        <li>
          Articles: {report.imported.length} {done} imported, {report.updated.length} {done} updated, {report.unchanged.length}{' '}
          already here, {report.skipped.length} skipped, <strong>{report.failed.length} failed</strong>
        </li>
        <li>
          Comments: {report.comments.imported} {done} imported, {report.comments.alreadyThere} already here,{' '}
          {report.comments.refused} refused
        </li>
        <li>
          {plural(report.categoriesCreated.length, 'new category', 'new categories')}
          {report.categoriesCreated.length > 0 && `: ${report.categoriesCreated.join(', ')}`}
        </li>
        <li>{plural(report.redirects, 'old address', 'old addresses')} redirected to the articles</li>
        {report.infoPages.map((page) => (
          <li key={page.slug}>
            {page.slug === 'about' ? 'About' : 'Contact'} page from &ldquo;{page.title}&rdquo;:{' '}
            {page.outcome === 'kept'
              ? 'not taken'
              : page.outcome === 'unchanged'
                ? 'already here'
                : report.dryRun
                  ? `would be ${page.outcome}`
                  : page.outcome}
            {page.reason ? ` (${page.reason})` : ''}
          </li>
        ))}
      </ul>
      <Lines title="Failed" lines={report.failed} open />
      <Lines title="Imported" lines={report.imported} />
      <Lines title="Updated" lines={report.updated} />
      <Lines title="Already here" lines={report.unchanged} />
      <Lines title="Skipped" lines={report.skipped} />
    </>
  );
}

function Answer({ answer }: { answer: ImportAnswer }) {
  if (answer.kind === 'import') return <Report report={answer.report} />;
  const rows = Object.entries(answer.tables)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `${count} ${table.replace(/_/g, ' ')}`)
    .join(', ');
  return (
    <p>
      {answer.dryRun ? 'Checked only, nothing written. The archive would restore ' : 'Restored from the export archive: '}
      {rows || 'no content'}; {plural(answer.files, 'uploaded file')}
      {answer.dryRun ? '.' : `; ${plural(answer.indexed, 'article')} indexed for search.`}
    </p>
  );
}

/** /admin/import: a WordPress or Ghost export, or this site's own export archive, uploaded and imported with a report. */
export default function ImportPanel() {
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(true);
  const [stage, setStage] = useState<Stage>({ at: 'idle' });
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = stage.at !== 'idle';

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setAnswer(null);
    if (!file) return setError('Choose a file to import.');
    if (file.size > IMPORT_MAX_BYTES)
      return setError(
        `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB: import it with npm run import on the server.`,
      );
    setStage({ at: 'sending', sent: 0, total: file.size });
    try {
      const result = await sendImportFile(
        file,
        dryRun,
        (sent, total) => setStage(sent >= total ? { at: 'working' } : { at: 'sending', sent, total }),
        (done, total) => setStage({ at: 'working', done, total }),
      );
      setAnswer(result);
    } catch (caught) {
      setError(statedMessageOf(caught, 'The import failed. Nothing was written. Please try again.'));
    } finally {
      setStage({ at: 'idle' });
    }
  }

  return (
    <section className="admin-card" aria-labelledby="import-heading">
      <h2 id="import-heading">Bring content in</h2>
      <p>
        Bring articles in from a WordPress export (Tools → Export, an <code>.xml</code> file), a Ghost export (Settings → Labs →
        Export, a <code>.json</code> file), or read back an export archive of this site (<code>.tar.gz</code>, into an empty site
        only). Running the same file again changes nothing. Files up to {IMPORT_MAX_BYTES / 1024 / 1024} MB; larger ones, and a
        WordPress site&apos;s images from its uploads folder, go through <code>npm run import</code> on the server.
      </p>
      <form className="admin-form" onSubmit={onSubmit} aria-busy={busy}>
        <div className="field">
          <label htmlFor="import-file">Export file</label>
          <input
            id="import-file"
            type="file"
            accept=".xml,.json,.gz,.tgz,application/xml,application/json,application/gzip"
            disabled={busy}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </div>
        <div className="field">
          <label>
            <input type="checkbox" checked={dryRun} disabled={busy} onChange={(event) => setDryRun(event.target.checked)} /> Check
            only: show the report without writing anything
          </label>
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {dryRun ? 'Check the file' : 'Import'}
          </button>
          {stage.at === 'sending' && (
            <span className="import-progress">
              <progress max={stage.total} value={stage.sent} aria-label="Upload" /> Sending{' '}
              {Math.round((stage.sent / Math.max(stage.total, 1)) * 100)}%
            </span>
          )}
          {stage.at === 'working' && stage.total === undefined && (
            <span className="progress" role="status">
              {dryRun ? 'Reading the file…' : 'Reading the file, then each article is written with its comments…'}
            </span>
          )}
          {stage.at === 'working' && stage.total !== undefined && (
            <span className="import-progress" role="status">
              <progress max={stage.total} value={stage.done} aria-label={dryRun ? 'Articles checked' : 'Articles imported'} />{' '}
              {dryRun ? 'Checked' : 'Imported'} {stage.done?.toLocaleString('en-GB')} of {stage.total.toLocaleString('en-GB')}{' '}
              {stage.total === 1 ? 'article' : 'articles'}
            </span>
          )}
        </div>
      </form>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      {answer && (
        <div className="import-report" role="status">
          <h3>Report</h3>
          <Answer answer={answer} />
        </div>
      )}
    </section>
  );
}
