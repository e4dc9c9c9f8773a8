import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createPageCache, type AppContext } from '../context.ts';
import { tagName } from '../page-store/site-tags.ts';
import { AppError } from '../errors.ts';
import { getInfoPage, requireInfoPageSlug, restoreInfoPageRevision, saveInfoPageText } from './info-pages.ts';
import { getInfoPageRevision, listRevisionsOfInfoPage } from './info-page-revisions.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('info-pages-');
const maria = { id: 1, username: 'maria' };
const TITLE = 'Maple Notes';
let app: AppContext;
let changes: string[][];

async function makeApp(keep: number): Promise<AppContext> {
  const { db, sqlite } = await openMigratedDatabase();
  changes = [];
  const config = loadConfig({ REVISIONS_KEEP: String(keep), UPLOADS_DIR: tempDir() });
  app = { config, db, sqlite, pageCache: createPageCache(async (tags) => void changes.push(tags.map(tagName))) };
  return app;
}

afterEach(() => app?.sqlite.close());

const save = (content: string, slug: 'about' | 'contact' = 'about') =>
  saveInfoPageText(app, maria, slug, { content, content_source: content.replace(/<[^>]+>/g, '') }, TITLE);

async function refusal(action: () => Promise<unknown>): Promise<AppError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('About and Contact revisions', () => {
  it('records every save as saved (sanitized), who and when, keeping the built-in text the first save replaced', async () => {
    await makeApp(50);
    expect(await listRevisionsOfInfoPage(app, 'about')).toEqual([]);
    await save('<p>First <script>alert(1)</script>words.</p>');
    await save('<p>Second words.</p>');
    const list = await listRevisionsOfInfoPage(app, 'about');
    expect(list.map((r) => [r.action, r.username, r.slug])).toEqual([
      ['update', 'maria', 'about'],
      ['update', 'maria', 'about'],
      ['builtin', 'maria', 'about'],
    ]);
    expect(Date.parse(list[0]!.created_at)).not.toBeNaN();
    const first = await getInfoPageRevision(app, 'about', list[1]!.id);
    expect(first.content).toBe('<p>First words.</p>');
    expect(first.user_id).toBe(1);
    expect((await getInfoPageRevision(app, 'about', list[2]!.id)).content).toContain('Maple Notes is a small team of teachers');
    // Each save refreshed the pages; Contact has no revisions of its own yet.
    expect(changes).toEqual([['info-pages'], ['info-pages']]);
    expect(await listRevisionsOfInfoPage(app, 'contact')).toEqual([]);
  });

  it('keeps the newest REVISIONS_KEEP per page, as articles do', async () => {
    await makeApp(2);
    await save('<p>One.</p>');
    await save('<p>Two.</p>');
    await save('<p>Three.</p>');
    await save('<p>Elsewhere.</p>', 'contact');
    const about = await listRevisionsOfInfoPage(app, 'about');
    const texts = await Promise.all(about.map(async (r) => (await getInfoPageRevision(app, 'about', r.id)).content));
    expect(texts).toEqual(['<p>Three.</p>', '<p>Two.</p>']);
    expect((await listRevisionsOfInfoPage(app, 'contact')).map((r) => r.action)).toEqual(['update', 'builtin']);
  });

  it('restores a revision as a save of its own: sanitized again, a new revision, the pages refreshed', async () => {
    await makeApp(50);
    await save('<p>Kept text.</p>');
    await save('<p>Newer text.</p>');
    const [, kept] = await listRevisionsOfInfoPage(app, 'about');
    // A revision written before today's sanitizer: restoring it must not bring the script back.
    app.sqlite
      .prepare("update info_page_revisions set content = '<p>Kept text.</p><script>x()</script>' where id = ?")
      .run(kept!.id);
    changes.length = 0;
    const restored = await restoreInfoPageRevision(app, maria, 'about', kept!.id, TITLE);
    expect(restored.content).toBe('<p>Kept text.</p>');
    expect(restored.message).toBe('About Us page restored from the revision.');
    expect(changes).toEqual([['info-pages']]);
    expect((await getInfoPage(app.db, 'about', TITLE)).content).toBe('<p>Kept text.</p>');
    const list = await listRevisionsOfInfoPage(app, 'about');
    expect(list.map((r) => r.action)).toEqual(['restore', 'update', 'update', 'builtin']);
    expect((await getInfoPageRevision(app, 'about', list[0]!.id)).content_source).toBe('Kept text.');
  });

  it('answers 404 for a revision it does not have, or one of the other page, and for pages other than About and Contact', async () => {
    await makeApp(50);
    await save('<p>Contact text.</p>', 'contact');
    const [contactRevision] = await listRevisionsOfInfoPage(app, 'contact');
    const missing = await refusal(() => restoreInfoPageRevision(app, maria, 'about', 999, TITLE));
    expect([missing.status, missing.message]).toEqual([404, 'That revision was not found.']);
    expect((await refusal(() => getInfoPageRevision(app, 'about', contactRevision!.id))).status).toBe(404);
    expect(() => requireInfoPageSlug('team')).toThrow('There is no such page: only about and contact can be edited.');
    expect(requireInfoPageSlug('contact')).toBe('contact');
  });

  it('removes an uploaded picture once no kept revision uses it', async () => {
    await makeApp(2);
    const paths = ['480', '960', '1600'].map((w) => `images/pic-w${w}.webp`);
    for (const p of paths) {
      fs.mkdirSync(path.join(app.config.uploadsDir, 'images'), { recursive: true });
      fs.writeFileSync(path.join(app.config.uploadsDir, p), 'webp');
      app.sqlite
        .prepare(
          "insert into uploads (kind, path, original_name, mime, size, created_at) values ('image', ?, 'p.png', 'image/webp', 4, 'now')",
        )
        .run(p);
    }
    const picture = path.join(app.config.uploadsDir, paths[0]!);
    await save('<p>With a picture.</p><img src="/uploads/images/pic-w960.webp" alt="A map">');
    await save('<p>Without it.</p>');
    // The revision before still shows it: a restore could bring it back.
    expect(fs.existsSync(picture)).toBe(true);
    await save('<p>Still without it.</p>');
    expect(fs.existsSync(picture)).toBe(false);
  });
});
