import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '../db/client.ts';
import { createBackup } from './backup.ts';
import { BackupError, hashFile, listFiles } from './manifest.ts';
import { checkBackup, restoreBackup } from './restore.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('ops-backup-');

interface Site {
  root: string;
  databasePath: string;
  uploadsDir: string;
  pageStoreDir: string;
}

/** A migrated database with one category and a file in the uploads folder (plus an unfinished temp file). */
async function makeSite(): Promise<Site> {
  const root = tempDir();
  const site = {
    root,
    databasePath: path.join(root, 'db', 'site.sqlite'),
    uploadsDir: path.join(root, 'uploads'),
    pageStoreDir: path.join(root, 'pages'),
  };
  const { db, sqlite } = openDatabase(site.databasePath);
  await migrateToLatest(db);
  sqlite.prepare("insert into categories (name, sequence, created_at) values ('Kept', 0, '2026-01-01')").run();
  sqlite
    .prepare(
      "insert into uploads (kind, path, original_name, mime, size, created_at) values ('pdf', 'pdfs/a.pdf', 'a.pdf', 'application/pdf', 4, '2026-01-01')",
    )
    .run();
  await db.destroy();
  fs.mkdirSync(path.join(site.uploadsDir, 'pdfs'), { recursive: true });
  fs.writeFileSync(path.join(site.uploadsDir, 'pdfs', 'a.pdf'), '%PDF');
  fs.writeFileSync(path.join(site.uploadsDir, 'pdfs', '.tmp-123-b.pdf'), 'half');
  fs.mkdirSync(site.pageStoreDir);
  fs.writeFileSync(path.join(site.pageStoreDir, 'pages.sqlite'), 'stored pages');
  return site;
}

function categories(file: string): string[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare('select name from categories order by id').all() as Array<{ name: string }>).map((row) => row.name);
  } finally {
    db.close();
  }
}

function addCategory(file: string, name: string): void {
  const db = new SQLite(file);
  db.prepare("insert into categories (name, sequence, created_at) values (?, 1, '2026-01-02')").run(name);
  db.close();
}

describe('createBackup', () => {
  it('writes the database, the finished uploads and a manifest with sizes, hashes and migrations', async () => {
    const site = await makeSite();
    const out = path.join(site.root, 'backups');
    const result = await createBackup({ ...site, outDir: out, now: new Date('2026-03-04T05:06:07.089Z') });
    expect(result.dir).toBe(path.join(out, 'backup-20260304T050607-089Z'));
    expect(fs.readdirSync(out)).toEqual(['backup-20260304T050607-089Z']);
    expect(listFiles(result.dir)).toEqual(['manifest.json', 'site.sqlite', 'uploads/pdfs/a.pdf']);
    const { manifest } = result;
    expect(manifest.migrations).toEqual([
      '0001_initial',
      '0002_uploads',
      '0003_search',
      '0004_comment_moderation',
      '0005_publishing',
    ]);
    expect(manifest.uploads).toEqual([
      { path: 'uploads/pdfs/a.pdf', size: 4, sha256: hashFile(path.join(site.uploadsDir, 'pdfs', 'a.pdf')) },
    ]);
    expect(manifest.database.sha256).toBe(hashFile(path.join(result.dir, 'site.sqlite')));
    expect(manifest.missing_uploads).toEqual([]);
    expect(categories(path.join(result.dir, 'site.sqlite'))).toEqual(['Kept']);
    // One self-contained file: no WAL beside it.
    expect(fs.readFileSync(path.join(result.dir, 'site.sqlite'))[18]).toBe(1);

    const again = await createBackup({ ...site, outDir: out, now: new Date('2026-03-04T05:06:07.089Z') });
    expect(path.basename(again.dir)).toBe('backup-20260304T050607-089Z-2');
  });

  it('notes files the database lists that were gone, and refuses a missing database', async () => {
    const site = await makeSite();
    fs.rmSync(path.join(site.uploadsDir, 'pdfs', 'a.pdf'));
    const result = await createBackup({ ...site, outDir: path.join(site.root, 'backups') });
    expect(result.manifest.missing_uploads).toEqual(['pdfs/a.pdf']);
    await expect(createBackup({ ...site, databasePath: path.join(site.root, 'nope.sqlite'), outDir: site.root })).rejects.toThrow(
      BackupError,
    );
  });
});

describe('restoreBackup', () => {
  it('replaces the database and the uploads, keeps what it replaced, and empties the page store', async () => {
    const site = await makeSite();
    const { dir } = await createBackup({ ...site, outDir: path.join(site.root, 'backups') });
    addCategory(site.databasePath, 'Added later');
    fs.writeFileSync(path.join(site.uploadsDir, 'pdfs', 'later.pdf'), '%PDF later');
    fs.rmSync(path.join(site.uploadsDir, 'pdfs', 'a.pdf'));

    const result = restoreBackup({ ...site, backupDir: dir, now: new Date('2026-05-01T00:00:00Z') });
    expect(categories(site.databasePath)).toEqual(['Kept']);
    expect(listFiles(site.uploadsDir)).toEqual(['pdfs/a.pdf']);
    expect(result.previousDatabase).toBe(`${site.databasePath}.before-restore-20260501T000000-000Z`);
    expect(categories(result.previousDatabase!)).toEqual(['Kept', 'Added later']);
    expect(listFiles(result.previousUploads!)).toEqual(['pdfs/later.pdf']);
    expect(fs.existsSync(path.join(site.pageStoreDir, 'pages.sqlite'))).toBe(false);
    expect(fs.readdirSync(path.dirname(site.databasePath)).filter((name) => name.endsWith('.restoring'))).toEqual([]);
  });

  it('restores onto an empty machine', async () => {
    const site = await makeSite();
    const { dir } = await createBackup({ ...site, outDir: path.join(site.root, 'backups') });
    const fresh = tempDir();
    const target = {
      databasePath: path.join(fresh, 'data', 'site.sqlite'),
      uploadsDir: path.join(fresh, 'files'),
      pageStoreDir: path.join(fresh, 'pages'),
    };
    const result = restoreBackup({ ...target, backupDir: dir });
    expect(result.previousDatabase).toBeNull();
    expect(categories(target.databasePath)).toEqual(['Kept']);
    expect(listFiles(target.uploadsDir)).toEqual(['pdfs/a.pdf']);
  });

  it('keeps the writes a killed server left in the WAL in the copy it sets aside', async () => {
    const site = await makeSite();
    const { dir } = await createBackup({ ...site, outDir: path.join(site.root, 'backups') });
    const script = `const S=require('better-sqlite3');const d=new S(${JSON.stringify(site.databasePath)});d.pragma('journal_mode = WAL');
      d.pragma('wal_autocheckpoint = 0');d.prepare("insert into categories (name, sequence, created_at) values ('In the WAL', 2, 'x')").run();process.kill(process.pid,'SIGKILL');`;
    spawnSync(process.execPath, ['-e', script], { cwd: path.resolve(import.meta.dirname, '../../..') });
    expect(fs.statSync(`${site.databasePath}-wal`).size).toBeGreaterThan(0);
    const result = restoreBackup({ ...site, backupDir: dir });
    expect(categories(result.previousDatabase!)).toEqual(['Kept', 'In the WAL']);
    expect(categories(site.databasePath)).toEqual(['Kept']);
    expect(fs.existsSync(`${site.databasePath}-wal`)).toBe(false);
  });

  it('refuses while another process has the database open, touching nothing', async () => {
    const site = await makeSite();
    const { dir } = await createBackup({ ...site, outDir: path.join(site.root, 'backups') });
    addCategory(site.databasePath, 'Live');
    const script = `const S=require('better-sqlite3');const d=new S(${JSON.stringify(site.databasePath)});d.pragma('journal_mode = WAL');
      d.prepare('select 1').get();process.stdout.write('open');setInterval(()=>{},1000);`;
    const holder = spawn(process.execPath, ['-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      expect(() => restoreBackup({ ...site, backupDir: dir })).toThrow(/running on this database/);
      expect(categories(site.databasePath)).toEqual(['Kept', 'Live']);
      for (const name of listFiles(path.dirname(site.databasePath)))
        expect(['site.sqlite', 'site.sqlite-wal', 'site.sqlite-shm']).toContain(name);
      expect(fs.existsSync(path.join(site.pageStoreDir, 'pages.sqlite'))).toBe(true);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

describe('checkBackup', () => {
  async function backupWith(change: (manifest: Record<string, unknown>, dir: string) => void): Promise<string> {
    const site = await makeSite();
    const { dir } = await createBackup({ ...site, outDir: path.join(site.root, 'backups') });
    const file = path.join(dir, 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    change(manifest, dir);
    fs.writeFileSync(file, JSON.stringify(manifest));
    return dir;
  }

  it('accepts an untouched backup', async () => {
    const dir = await backupWith(() => {});
    expect(checkBackup(dir).uploads).toHaveLength(1);
  });

  it('refuses paths that leave the backup folder', async () => {
    const dir = await backupWith((manifest) => {
      (manifest.uploads as Array<{ path: string }>)[0]!.path = 'uploads/../../../etc/passwd';
    });
    expect(() => checkBackup(dir)).toThrow(/uploads list is malformed/);
  });

  it('refuses a backup from a newer version of the site', async () => {
    const dir = await backupWith((manifest, folder) => {
      const db = new SQLite(path.join(folder, 'site.sqlite'));
      db.prepare("insert into kysely_migration (name, timestamp) values ('9999_future', 'x')").run();
      db.close();
      manifest.migrations = [...(manifest.migrations as string[]), '9999_future'];
      (manifest.database as { size: number; sha256: string }).size = fs.statSync(path.join(folder, 'site.sqlite')).size;
      (manifest.database as { size: number; sha256: string }).sha256 = hashFile(path.join(folder, 'site.sqlite'));
    });
    expect(() => checkBackup(dir)).toThrow(/newer version of the site \(migrations 9999_future\)/);
  });

  it('refuses a database whose migrations differ from the manifest', async () => {
    const dir = await backupWith((manifest) => {
      manifest.migrations = ['0001_initial'];
    });
    expect(() => checkBackup(dir)).toThrow(/differ from the manifest/);
  });
});
