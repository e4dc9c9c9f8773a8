import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { call, expectError, sendJson, type Json } from './http-support.ts';

/**
 * The first run (no admin yet): the start prints a one-time setup link, `npm run admin --
 * --setup-link` shows the same one, the link creates the owner and signs them in exactly once and
 * only while no admin exists; ADMIN_EMAIL installs get no link. Then backups carry the settings
 * and the About page, and restore brings them back.
 */

const root = path.resolve(import.meta.dirname, '../..');
let fresh: TestServer;

interface Run {
  code: number | null;
  output: string;
}

function runScript(server: TestServer, script: string, args: string[]): Promise<Run> {
  const env = {
    ...process.env,
    DATABASE_PATH: server.databasePath,
    UPLOADS_DIR: server.uploadsDir,
    PAGE_STORE_DIR: path.join(server.dir, 'pages'),
    PUBLIC_ORIGIN: server.origin,
  };
  const child = spawn(process.execPath, [script, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const OWNER = { username: 'maria', email: 'maria@example.org', password: 'a long owner passphrase', site_title: 'Maria’s Maths' };

beforeAll(async () => {
  // No ADMIN_EMAIL: what `npm start` does on a new machine.
  fresh = await startServer({ env: { ADMIN_EMAIL: '', ADMIN_PASSWORD: '' } });
});

afterAll(async () => {
  await fresh?.stop();
});

describe('first-run setup', () => {
  let link = '';

  it('prints a setup link at start and still fills the site with the demo content', async () => {
    const match = /First run: open (http:\/\/127\.0\.0\.1:\d+\/setup\?token=[A-Za-z0-9_-]{32}) to create/.exec(fresh.output());
    expect(match, fresh.output()).not.toBeNull();
    link = match![1]!;
    expect(fresh.output()).toMatch(/Demo content: \d+ categories/);
    expect(fresh.output()).not.toMatch(/Generated admin password/);
    expect(((await call(fresh, '/api/blogs')).body as unknown[]).length).toBeGreaterThan(0);
  });

  it('shows the same link from `npm run admin -- --setup-link`', async () => {
    const run = await runScript(fresh, 'scripts/admin.ts', ['--setup-link']);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(link);
  });

  it('refuses a missing or wrong token, and bad input with a message per field', async () => {
    for (const page of ['/setup', '/setup?token=wrong']) {
      const response = await fetch(fresh.url(page));
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('This setup link is not valid.');
    }
    const token = new URL(link).searchParams.get('token')!;
    expectError(await sendJson(fresh, 'POST', '/api/setup', { ...OWNER, token: `${token}x` }), 403, 'forbidden');
    const bad = expectError(
      await sendJson(fresh, 'POST', '/api/setup', { token, username: 'x', email: 'nope', password: 'short', site_title: ' ' }),
      400,
      'invalid_input',
    );
    expect(Object.keys(bad.fields as Json)).toEqual(['username', 'email', 'password', 'site_title']);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Set up your site');
  });

  it('creates the owner, signs them in and names the site, once', async () => {
    const token = new URL(link).searchParams.get('token')!;
    const created = await sendJson(fresh, 'POST', '/api/setup', { ...OWNER, token });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      username: 'maria',
      is_admin: true,
      message: 'Your site is ready. You are signed in as its owner.',
    });
    const cookie = created.headers
      .getSetCookie()
      .find((c) => c.startsWith('session='))!
      .split(';')[0]!;
    const me = await call(fresh, '/api/users/me', { headers: { Cookie: cookie } });
    expect(me.body).toMatchObject({ user: { username: 'maria', is_admin: true } });
    expect((await call(fresh, '/api/admin/settings', { headers: { Cookie: cookie } })).status).toBe(200);
    // The title is on the home page when the setup answers.
    expect(await (await fetch(fresh.url('/'))).text()).toContain('<title>Maria’s Maths</title>');

    // Used: the same link again, or another account through it, is refused.
    expectError(
      await sendJson(fresh, 'POST', '/api/setup', { ...OWNER, email: 'other@example.org', username: 'other', token }),
      409,
      'conflict',
    );
    const again = await fetch(link);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('This site already has an owner.');
    const run = await runScript(fresh, 'scripts/admin.ts', ['--setup-link']);
    expect(run.code).toBe(1);
    expect(run.output).toContain('already has an admin');
  });

  it('prints no link when ADMIN_EMAIL makes the admin (unattended installs)', async () => {
    const unattended = await startServer({ env: { SEED_DEMO: 'false' } });
    try {
      expect(unattended.output()).not.toContain('First run');
      const session = await loginAsAdmin(unattended);
      expect(session.isAdmin).toBe(true);
      const setup = await fetch(unattended.url('/setup?token=anything'));
      expect(setup.status).toBe(409);
    } finally {
      await unattended.stop();
    }
  });
});

describe('backups carry the settings and the pages', () => {
  it('restores the site title, a social link and the About text', async () => {
    const server = await startServer({ env: { SEED_DEMO: 'false' } });
    const backups = fs.mkdtempSync(path.join(os.tmpdir(), 'study-site-settings-backup-'));
    let restarted: TestServer | null = null;
    try {
      const auth = bearer(await loginAsAdmin(server));
      const put = (body: Json) => sendJson(server, 'PUT', '/api/admin/settings', body, auth);
      expect((await put({ site_title: 'Kept Title', follow_youtube: 'https://www.youtube.com/@kept' })).status).toBe(200);
      const about = await sendJson(server, 'PUT', '/api/admin/pages/about', { content: '<p>Kept about text.</p>' }, auth);
      expect(about.status, about.text).toBe(200);

      const backup = await runScript(server, 'scripts/backup.ts', ['--out', backups]);
      expect(backup.code, backup.output).toBe(0);
      const folder = /Backup written to (.+)/.exec(backup.output)![1]!.trim();

      expect((await put({ site_title: 'Changed Title', follow_youtube: '' })).status).toBe(200);
      expect((await sendJson(server, 'PUT', '/api/admin/pages/about', { content: '<p>Changed.</p>' }, auth)).status).toBe(200);
      await server.stop();
      const restore = await runScript(server, 'scripts/restore.ts', [folder]);
      expect(restore.code, restore.output).toBe(0);

      restarted = await startServer({ dir: server.dir, env: { SEED_DEMO: 'false', PORT: new URL(server.origin).port } });
      const home = await (await fetch(restarted.url('/'))).text();
      expect(home).toContain('<title>Kept Title</title>');
      expect(home).toContain('href="https://www.youtube.com/@kept"');
      expect(await (await fetch(restarted.url('/about'))).text()).toContain('<p>Kept about text.</p>');
      // About's revisions as they were at the backup: the replaced built-in text and the kept save, not the later one.
      const restoredAuth = bearer(await loginAsAdmin(restarted));
      const revisions = await call(restarted, '/api/admin/pages/about/revisions', { headers: restoredAuth });
      expect((revisions.body as Json[]).map((r) => r.action)).toEqual(['update', 'builtin']);
      const [kept] = revisions.body as Json[];
      const keptText = await call(restarted, `/api/admin/pages/about/revisions/${String(kept!.id)}`, { headers: restoredAuth });
      expect((keptText.body as Json).content).toBe('<p>Kept about text.</p>');
    } finally {
      await server.stop();
      await restarted?.stop();
      fs.rmSync(backups, { recursive: true, force: true });
    }
  });
});
