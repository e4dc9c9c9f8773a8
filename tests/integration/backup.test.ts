import { spawn } from 'node:child_process';
import { migrations } from '../../db/migrations/index.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, untilPrerendered, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { makePdf, makePng } from '../support/files.ts';
import { blogBodyFrom, buildCommentBody } from '../support/builders.ts';
import { call, sendJson, uploadImage, uploadPdf, type Json } from './http-support.ts';
import { untilTrue } from '../support/wait.ts';

/**
 * Backups (issue "Hardening", Backups and operations): `npm run backup` while a burst of writes
 * runs, then changes and deletions, then `npm run restore` on the stopped server: the site comes
 * back exactly as it was when the backup was taken, uploads included.
 */

const root = path.resolve(import.meta.dirname, '../..');
let server: TestServer;
let port: string;
let auth: Record<string, string>;
let backupsDir: string;

interface Run {
  code: number | null;
  output: string;
}

/** Runs one of the project's scripts with the server's files as its configuration. */
function runScript(script: string, args: string[]): Promise<Run> {
  const env = {
    ...process.env,
    DATABASE_PATH: server.databasePath,
    UPLOADS_DIR: server.uploadsDir,
    PAGE_STORE_DIR: path.join(server.dir, 'pages'),
  };
  const child = spawn(process.execPath, [script, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

function start(dir?: string): Promise<TestServer> {
  return startServer({ ...(dir ? { dir } : {}), env: { ...(port ? { PORT: port } : {}), RATE_LIMIT_COMMENT_IP: '1000000' } });
}

async function download(pathname: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(server.url(pathname));
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

function integrity(file: string): unknown {
  const db = new SQLite(file, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  server = await start();
  port = new URL(server.origin).port;
  auth = bearer(await loginAsAdmin(server));
  backupsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-backups-'));
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(backupsDir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('round trip: a backup taken under writes comes back whole after changes and deletions', async () => {
    // An article with an uploaded image and PDF: deleting it later removes those files too.
    const image = await uploadImage(server, { data: await makePng(600, 300), name: 'cover.png', type: 'image/png' }, auth);
    expect(image.status, image.text).toBe(201);
    const pdf = await uploadPdf(server, { data: makePdf('Backed up'), name: 'notes.pdf', type: 'application/pdf' }, auth);
    expect(pdf.status, pdf.text).toBe(201);
    const imageUrl = (image.body as { url: string }).url;
    const pdfUrl = (pdf.body as { link: string }).link;
    const categories = (await call(server, '/api/categories')).body as Array<{ id: number }>;
    const created = await sendJson(
      server,
      'POST',
      '/api/blogs',
      {
        title: 'Kept by the backup',
        content: '<p>Article with files</p>',
        content_source: 'Article with files',
        category_id: categories[0]!.id,
        image: imageUrl,
        pdf_link: pdfUrl,
        isVideo: '0',
        video_link: '',
        payment_link: '',
        form_name: '',
        form_link: '',
      },
      auth,
    );
    expect(created.status, created.text).toBe(201);
    const article = created.body as Json & { id: number };
    const imageBytes = await download(imageUrl);
    const pdfBytes = await download(pdfUrl);
    expect(imageBytes.status).toBe(200);
    expect(pdfBytes.status).toBe(200);
    const other = ((await call(server, '/api/blogs?limit=3')).body as Array<Json & { id: number; title: string }>).find(
      (b) => b.id !== article.id,
    )!;

    // The burst: comments keep coming while the backup runs. Each is marked with the phase it was
    // sent in and the one it was answered in: the order of events, no clock.
    type Phase = 'before' | 'during' | 'after';
    let phase: Phase = 'before';
    const answered: Array<{ text: string; sentIn: Phase; answeredIn: Phase }> = [];
    let stop = false;
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const text = `backup burst w${n} n${i}`;
        const sentIn = phase;
        const response = await fetch(server.url(`/api/blogs/${other.id}/comment`), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(buildCommentBody({ username: 'Burst', comment: text })),
        });
        expect(response.status).toBe(201);
        await response.body?.cancel();
        answered.push({ text, sentIn, answeredIn: phase });
      }
    };
    // Let the start-up pre-render finish, so the burst has the server to itself.
    await untilPrerendered(server);
    const burst = Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
    await untilTrue(() => answered.length >= 10, 'comments answered before the backup');
    phase = 'during';
    const backup = await runScript('scripts/backup.ts', ['--out', backupsDir]);
    phase = 'after';
    await untilTrue(() => answered.filter((c) => c.sentIn === 'after').length >= 10, 'comments sent after the backup');
    stop = true;
    await burst;
    expect(backup.code, backup.output).toBe(0);
    const folder = /Backup written to (.+)/.exec(backup.output)![1]!.trim();
    expect(path.dirname(folder)).toBe(backupsDir);
    expect(fs.readdirSync(backupsDir)).toEqual([path.basename(folder)]);
    // Answered before the backup script was started: committed before it ran.
    const before = answered.filter((c) => c.answeredIn === 'before');
    const after = answered.filter((c) => c.sentIn === 'after');
    expect(before.length).toBeGreaterThanOrEqual(10);
    expect(after.length).toBeGreaterThanOrEqual(10);

    const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as {
      migrations: string[];
      database: { path: string; size: number; sha256: string };
      uploads: Array<{ path: string; size: number; sha256: string }>;
    };
    expect(manifest.migrations).toEqual(Object.keys(migrations));
    expect(manifest.database.path).toBe('site.sqlite');
    const imagePath = `uploads/${imageUrl.replace(/^\/uploads\//, '')}`;
    const listed = manifest.uploads.find((f) => f.path === imagePath);
    expect(listed?.size).toBe(imageBytes.bytes.length);
    expect(integrity(path.join(folder, 'site.sqlite'))).toBe('ok');
    expect((await runScript('scripts/restore.ts', [folder, '--check'])).code).toBe(0);

    // After the backup: the article and its files go, another article changes.
    expect((await sendJson(server, 'DELETE', `/api/blogs/${article.id}`, {}, auth)).status).toBe(200);
    expect((await download(imageUrl)).status).toBe(404);
    const renamed = await sendJson(
      server,
      'PUT',
      `/api/blogs/${other.id}`,
      blogBodyFrom(other, { title: 'Changed after the backup' }),
      auth,
    );
    expect(renamed.status, renamed.text).toBe(200);
    expect(await (await fetch(server.url(`/blog/${other.id}`))).text()).toContain('Changed after the backup');

    // The restore refuses to run under a live server and changes nothing.
    const refused = await runScript('scripts/restore.ts', [folder]);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/running/);
    expect((await call(server, `/api/blogs/${article.id}`)).status).toBe(404);

    await server.stop();
    const restored = await runScript('scripts/restore.ts', [folder]);
    expect(restored.code, restored.output).toBe(0);
    expect(integrity(server.databasePath)).toBe('ok');
    expect(fs.existsSync(`${server.databasePath}-wal`)).toBe(false);
    expect(fs.readdirSync(path.dirname(server.databasePath)).some((name) => name.startsWith('site.sqlite.before-restore-'))).toBe(
      true,
    );
    expect(fs.existsSync(path.join(server.dir, 'pages', 'pages.sqlite'))).toBe(false);

    server = await start(server.dir);
    const back = await call(server, `/api/blogs/${article.id}`);
    expect(back.status).toBe(200);
    expect((back.body as Json).title).toBe('Kept by the backup');
    expect(await download(imageUrl)).toEqual(imageBytes);
    expect(await download(pdfUrl)).toEqual(pdfBytes);
    const page = await (await fetch(server.url(`/blog/${other.id}`))).text();
    expect(page).toContain(other.title);
    expect(page).not.toContain('Changed after the backup');
    const comments = new Set(
      ((await call(server, `/api/blogs/${other.id}`)).body as { comments: Array<{ comment: string }> }).comments.map(
        (c) => c.comment,
      ),
    );
    for (const c of before) expect(comments.has(c.text), `"${c.text}" was answered before the backup began`).toBe(true);
    for (const c of after) expect(comments.has(c.text), `"${c.text}" was sent after the backup ended`).toBe(false);
    expect(integrity(server.databasePath)).toBe('ok');
  });

  it('refuses a backup that is damaged, incomplete or not a backup', async () => {
    const [folder] = fs.readdirSync(backupsDir).filter((name) => name.startsWith('backup-'));
    const copy = path.join(backupsDir, 'damaged');
    fs.cpSync(path.join(backupsDir, folder!), copy, { recursive: true });
    const manifest = JSON.parse(fs.readFileSync(path.join(copy, 'manifest.json'), 'utf8')) as {
      uploads: Array<{ path: string }>;
    };
    const victim = path.join(copy, manifest.uploads[0]!.path);
    const bytes = fs.readFileSync(victim);
    bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0xff;
    fs.writeFileSync(victim, bytes);
    const damaged = await runScript('scripts/restore.ts', [copy, '--check']);
    expect(damaged.code).toBe(1);
    expect(damaged.output).toMatch(/does not match its SHA-256/);

    fs.rmSync(victim);
    expect((await runScript('scripts/restore.ts', [copy, '--check'])).output).toMatch(/incomplete/);
    fs.rmSync(path.join(copy, 'manifest.json'));
    const notBackup = await runScript('scripts/restore.ts', [copy]);
    expect(notBackup.code).toBe(1);
    expect(notBackup.output).toMatch(/not a backup/);
    // Nothing was touched: the running server still answers from its database.
    expect((await fetch(server.url('/api/blogs?limit=1'))).status).toBe(200);
  });
});
