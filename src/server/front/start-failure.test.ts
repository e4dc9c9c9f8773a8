import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { describeStartFailure } from './start-failure.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('start-failure-');
const config = { databasePath: '/srv/site/db/site.sqlite', host: '127.0.0.1', port: 4321 };
const failure = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

/** A database file that passes its check. */
function intactDatabase(): string {
  const file = path.join(tempDir(), 'site.sqlite');
  const db = new SQLite(file);
  db.exec("create table notes (id integer primary key, text text); insert into notes (text) values ('kept')");
  db.close();
  return file;
}

describe('describeStartFailure', () => {
  it('names the database and points at npm run restore when it is damaged', () => {
    const damaged = path.join(tempDir(), 'site.sqlite');
    fs.writeFileSync(damaged, Buffer.alloc(64 * 1024, 'garbage garbage '));
    for (const databasePath of [damaged, config.databasePath]) {
      for (const code of ['SQLITE_CORRUPT', 'SQLITE_NOTADB']) {
        const text = describeStartFailure(failure('file is not a database', { code }), { ...config, databasePath });
        expect(text).toContain(`The database ${databasePath} is damaged`);
        expect(text).toContain('npm run restore');
      }
    }
  });

  it('never blames the database for a damaged file when the database passes its check', () => {
    const databasePath = intactDatabase();
    for (const code of ['SQLITE_CORRUPT', 'SQLITE_CORRUPT_INDEX', 'SQLITE_NOTADB']) {
      const text = describeStartFailure(failure('database disk image is malformed', { code }), { ...config, databasePath });
      expect(text).not.toContain(`${databasePath} is damaged`);
      expect(text).not.toContain('npm run restore');
      expect(text).toContain(`The database ${databasePath} passed its check`);
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
