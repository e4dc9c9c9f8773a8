import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import type { Db } from '../../src/server/db/client.ts';
import { openMigratedDatabase } from './db.ts';
import type { ImportTarget } from '../../src/server/import/import-run.ts';

/** The importer's tests' site: a migrated in-memory database and a temp folder, new for each test. */
export interface ImportTestSite {
  readonly db: Db;
  readonly sqlite: SQLite.Database;
  readonly target: ImportTarget;
  readonly dir: string;
}

/** Registers the set-up and clean-up for the calling test file; the fields are each test's. */
export function importTestSite(prefix: string): ImportTestSite {
  let current: (ImportTestSite & { close: () => void }) | undefined;
  beforeEach(async () => {
    const { db, close, sqlite } = await openMigratedDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    current = { db, close, sqlite, dir, target: { db, uploadsDir: path.join(dir, 'uploads'), revisionsKeep: 20 } };
  });
  afterEach(() => {
    current?.close();
    if (current) fs.rmSync(current.dir, { recursive: true, force: true });
    current = undefined;
  });
  const now = () =>
    current ??
    (() => {
      throw new Error('only inside a test');
    })();
  return {
    get db() {
      return now().db;
    },
    get sqlite() {
      return now().sqlite;
    },
    get target() {
      return now().target;
    },
    get dir() {
      return now().dir;
    },
  };
}

/** An imported article by its title, with its category's name. */
export const blogByTitle = (db: Db, title: string) =>
  db
    .selectFrom('blogs')
    .leftJoin('categories', 'categories.id', 'blogs.category_id')
    .select([
      'blogs.id',
      'blogs.title',
      'blogs.author',
      'blogs.content',
      'blogs.created_at',
      'blogs.status',
      'blogs.publish_at',
      'blogs.image',
      'categories.name as category',
    ])
    .where('blogs.title', '=', title)
    .executeTakeFirstOrThrow();

/** How many rows a table holds. */
export const countRows = (
  sqlite: SQLite.Database,
  table: 'blogs' | 'comments' | 'categories' | 'redirects' | 'blog_revisions' | 'uploads',
) => Promise.resolve((sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n);
