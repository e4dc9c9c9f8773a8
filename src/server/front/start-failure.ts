import type { Config } from '../config.ts';

/**
 * One message for a start that failed, naming the file or setting at fault and what to do. The
 * page store mends itself (store.ts); the database is the site's data and is never touched here.
 */
type ErrorWithCode = Error & { code?: unknown; path?: unknown; syscall?: unknown };

const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

export function describeStartFailure(error: unknown, config: Pick<Config, 'databasePath' | 'host' | 'port'>): string {
  if (!(error instanceof Error)) return `The server could not start: ${String(error)}`;
  const { code, path } = error as ErrorWithCode;
  const codeText = typeof code === 'string' ? code : '';
  if (DAMAGED.has(codeText)) {
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
