import type { ErrorBody, ImportAnswer, ProgressLine } from '../shared/api-types.ts';
import { ApiError } from './api.ts';

/** The largest file the Import screen sends (the server's BODY_LIMITS.import). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** What the import tells while it runs: articles done of all (after the upload). */
export type ImportWork = (done: number, total: number) => void;

/**
 * Sends a file to POST /api/admin/import as the body itself, reporting the upload's progress
 * (fetch cannot tell how much of a body has gone) and then the import's, read from the streamed
 * answer's lines as they come. Throws ApiError for a refused file.
 */
export function sendImportFile(
  file: File,
  dryRun: boolean,
  onProgress: (sent: number, total: number) => void,
  onWork: ImportWork = () => {},
): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/admin/import${dryRun ? '?dry_run=1' : ''}`);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/x-ndjson, application/json');
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    const streamed = () => /application\/x-ndjson/.test(request.getResponseHeader('Content-Type') ?? '');
    let read = 0;
    let last: ProgressLine | null = null;
    const readLines = () => {
      const text = request.responseText;
      let end = text.indexOf('\n', read);
      for (; end !== -1; end = text.indexOf('\n', read)) {
        const line = JSON.parse(text.slice(read, end)) as ProgressLine;
        read = end + 1;
        last = line;
        if ('progress' in line) onWork(line.progress.done, line.progress.total);
      }
    };
    request.onprogress = () => {
      if (streamed()) readLines();
    };
    request.onerror = () => reject(new Error('The connection failed before the server answered.'));
    request.onload = () => {
      let status = request.status;
      let body: unknown = null;
      try {
        if (streamed()) {
          readLines();
          const end: ProgressLine | null = last;
          if (end && 'answer' in end) body = end.answer;
          else if (end && 'failed' in end) ({ status, body } = end.failed);
          else status = 502;
        } else body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's error page): the status alone is told.
      }
      if (status >= 200 && status < 300) resolve(body as ImportAnswer);
      else reject(new ApiError(status, body && typeof body === 'object' ? (body as Partial<ErrorBody>) : null));
    };
    request.send(file);
  });
}
