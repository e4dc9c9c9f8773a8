import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { HitStore } from '../../hit-store.ts';
import { noteWriteFailed, noteWriteWorked } from '../write-health.ts';

/**
 * The rate limits' hits, in a small SQLite file of their own beside the database
 * (`site-limits.sqlite` for `site.sqlite`), so every serving process, and another server on the
 * same files, counts against the same numbers. A file apart from the site's data: it changes on
 * every search and login attempt, is worth nothing in a backup, and its write lock never waits
 * for a content write. Losing it only forgets recent hits, as a restart did before.
 *
 * `atomically` is one write transaction (BEGIN IMMEDIATE), which no other process can interleave with.
 */
export interface RateHitStore extends HitStore {
  close(): void;
}

export function openRateHitStore(file: string): RateHitStore {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Under the write lock from the start: serving processes starting together on a new file each
  // create the table, and one that read the empty schema before another committed it failed at
  // once ("database is locked"), so the server did not start.
  db.transaction(() =>
    db.exec(`
      create table if not exists rate_hits (id integer primary key, bucket text not null, key text not null, at integer not null);
      create index if not exists rate_hits_by_key on rate_hits (bucket, key, at);
    `),
  ).immediate();
  const statements = {
    live: db.prepare('select at from rate_hits where bucket = ? and key = ? and at > ? order by at, id').pluck(),
    insert: db.prepare('insert into rate_hits (bucket, key, at) values (?, ?, ?)'),
    expire: db.prepare('delete from rate_hits where bucket = ? and key = ? and at <= ?'),
    trim: db.prepare(
      `delete from rate_hits where id in (
         select id from rate_hits where bucket = ? and key = ? order by at desc, id desc limit -1 offset ?)`,
    ),
    latest: db.prepare('delete from rate_hits where id = (select max(id) from rate_hits where bucket = ? and key = ?)'),
    forget: db.prepare('delete from rate_hits where bucket = ? and key = ?'),
    keys: db.prepare('select count(distinct key) from rate_hits where bucket = ? and at > ?').pluck(),
    sweep: db.prepare('delete from rate_hits where bucket = ? and at <= ?'),
    dropStalest: db.prepare(
      `delete from rate_hits where bucket = @bucket and key in (
         select key from rate_hits where bucket = @bucket group by key order by max(at), max(id) limit @excess)`,
    ),
  };
  const keyCount = (bucket: string, after: number) => statements.keys.get(bucket, after) as number;
  return {
    atomically: <T>(run: () => T): T => {
      // Beside the database, on the same disk: a full disk shows here first (a comment or a login
      // counts its hit before it writes), so /healthz hears of it from here too.
      try {
        const result = db.transaction(run).immediate();
        noteWriteWorked(file);
        return result;
      } catch (error) {
        noteWriteFailed(file, error);
        throw error;
      }
    },
    hitsAfter: (bucket, key, after) => statements.live.all(bucket, key, after) as number[],
    add(bucket, key, at, keep, expiredAt) {
      statements.expire.run(bucket, key, expiredAt);
      statements.insert.run(bucket, key, at);
      statements.trim.run(bucket, key, keep);
    },
    removeLatest: (bucket, key) => void statements.latest.run(bucket, key),
    forget: (bucket, key) => void statements.forget.run(bucket, key),
    keyCount,
    prune(bucket, expiredAt, keepKeys) {
      statements.sweep.run(bucket, expiredAt);
      const excess = keyCount(bucket, expiredAt) - keepKeys;
      if (excess > 0) statements.dropStalest.run({ bucket, excess });
    },
    close: () => db.close(),
  };
}
