import { describe, expect, it } from 'vitest';
import { describeStartFailure } from './start-failure.ts';

const config = { databasePath: '/srv/site/db/site.sqlite', host: '127.0.0.1', port: 4321 };
const failure = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('describeStartFailure', () => {
  it('names the database and points at npm run restore when it is damaged', () => {
    for (const code of ['SQLITE_CORRUPT', 'SQLITE_NOTADB']) {
      const text = describeStartFailure(failure('file is not a database', { code }), config);
      expect(text).toContain('/srv/site/db/site.sqlite');
      expect(text).toContain('npm run restore');
    }
  });

  it('names the database for other SQLite failures, and the file for file-system ones', () => {
    expect(describeStartFailure(failure('unable to open database file', { code: 'SQLITE_CANTOPEN' }), config)).toContain(
      '/srv/site/db/site.sqlite',
    );
    expect(
      describeStartFailure(failure('EACCES: permission denied', { code: 'EACCES', path: '/srv/site/uploads' }), config),
    ).toContain('/srv/site/uploads');
    expect(describeStartFailure(failure('listen EADDRINUSE', { code: 'EADDRINUSE' }), config)).toContain('Port 4321');
    expect(describeStartFailure(new Error('No build found'), config)).toContain('No build found');
  });
});
