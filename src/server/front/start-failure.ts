import type { Config } from '../config.ts';
import { quickCheckDatabaseFile } from '../db/repositories/health.ts';

type ErrorWithCode = Error & { code?: unknown; path?: unknown; syscall?: unknown };

/**
 * One message for a start that failed, naming the file or setting at fault and what to do. The
 * page store mends itself (store.ts); the database is the site's data and is never touched here.
 * A damaged file is blamed on the database only when the database fails its own check: restoring
 * a backup over an intact database would lose everything written since that backup.
 */
export function describeStartFailure(error: unknown, config: Pick<Config, 'databasePath' | 'host' | 'port'>): string {
  if (!(error instanceof Error)) return `The server could not start: ${String(error)}`;
  const { code, path } = error as ErrorWithCode;
  const codeText = typeof code === 'string' ? code : '';
  const damaged = codeText.startsWith('SQLITE_CORRUPT') || codeText === 'SQLITE_NOTADB';
  if (damaged && quickCheckDatabaseFile(config.databasePath) === 'ok') {
    return (
      `The server could not start: a data file is damaged (${codeText}: ${error.message}). ` +
      `The database ${config.databasePath} passed its check, so do not restore a backup over it; ` +
      'the page store (PAGE_STORE_DIR) and the rate-limit file beside the database are caches that may be deleted.'
    );
  }
  if (damaged) {
    return (
      `The database ${config.databasePath} is damaged (${error.message}), so the server did not start. ` +
      'Restore the latest backup with `npm run restore -- <backup folder>` (README "Backups"); ' +
      'keep the damaged file until the restored site looks right.'
    );
  }
  if (codeText.startsWith('SQLITE_')) {
    return (
      `The database ${config.databasePath} could not be opened or written (${codeText}: ${error.message}). ` +
      'Check that the file and its folder exist, are writable by this user, and that the disk has space.'
    );
  }
  if (codeText === 'EADDRINUSE')
    return `Port ${config.port} on ${config.host} is already in use: stop the other server or set PORT.`;
  if (codeText === 'EADDRNOTAVAIL')
    return `HOST ${config.host} is not an address of this machine: set HOST (127.0.0.1 behind a proxy).`;
  if (typeof path === 'string') {
    if (codeText === 'ENOSPC') return `The disk holding ${path} is full: free some space and start again.`;
    if (codeText === 'EACCES' || codeText === 'EPERM' || codeText === 'EROFS') {
      return `No permission to use ${path} (${codeText}): make it writable by the user running the server.`;
    }
    return `The server could not start: ${error.message} (${path}).`;
  }
  return `The server could not start: ${error.message}`;
}
