import type { ErrorBody, ImportAnswer } from '../shared/api-types.ts';
import { ApiError } from './api.ts';

/** The largest file the Import screen sends (the server's BODY_LIMITS.import). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Sends a file to POST /api/admin/import as the body itself, reporting the upload's progress
 * (fetch cannot tell how much of a body has gone). Throws ApiError for a refused file.
 */
export function sendImportFile(
  file: File,
  dryRun: boolean,
  onProgress: (sent: number, total: number) => void,
): Promise<ImportAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/admin/import${dryRun ? '?dry_run=1' : ''}`);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Content-Type', 'application/octet-stream');
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onerror = () => reject(new Error('The connection failed before the server answered.'));
    request.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's error page): the status alone is told.
      }
      if (request.status >= 200 && request.status < 300) resolve(body as ImportAnswer);
      else reject(new ApiError(request.status, body && typeof body === 'object' ? (body as Partial<ErrorBody>) : null));
    };
    request.send(file);
  });
}
