import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { bearer, loginAsAdmin } from '../support/auth.ts';
import { makePng } from '../support/files.ts';
import { call, expectError, sendJson, untilRefreshDrained, uploadImage, type Json } from './http-support.ts';
import { until } from '../support/wait.ts';

/**
 * The publisher's settings over HTTP against the real built server: each setting reaches every
 * page it belongs on (HTML head and chrome, RSS, the web manifest), bad input is refused naming
 * the field, a low-contrast brand colour is refused with a passing shade, About is written like
 * an article, and the demo content goes in one step leaving an empty, working site.
 */

let site: TestServer;
let auth: Record<string, string>;
let adminCookie = '';

const SETTINGS = {
  site_title: 'Maple Notes',
  tagline: 'Revision that sticks',
  footer_text: 'Maple Notes is written by two chemistry teachers.\nNew notes every Sunday.',
  meta_description: 'Maple Notes: chemistry and biology revision notes, worked examples and past papers.',
  brand_color: '#0f766e',
  social_whatsapp: 'https://wa.me/4400000001',
  social_instagram: '',
  social_youtube: 'https://www.youtube.com/@maplenotes',
  follow_facebook: 'https://www.facebook.com/maplenotes',
  follow_twitter: '',
  follow_instagram: '',
  follow_youtube: '',
};

function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&copy;/g, '©')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function between(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  if (from === -1) return '';
  const to = html.indexOf(end, from + start.length);
  return to === -1 ? html.slice(from) : html.slice(from, to);
}

async function get(pathname: string): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetch(site.url(pathname));
  return { status: response.status, body: await response.text(), headers: response.headers };
}

/** Asks again until the page shows what it should: pages outside the main set are refreshed in the background. */
async function eventually(pathname: string, shows: (body: string) => boolean, timeoutMs?: number): Promise<string> {
  return until(async () => (await get(pathname)).body, shows, `${pathname} to show the change`, timeoutMs);
}

async function upload(width: number, height: number): Promise<string> {
  const answer = await uploadImage(site, { data: await makePng(width, height), name: 'brand.png', type: 'image/png' }, auth);
  expect(answer.status, answer.text).toBe(201);
  return (answer.body as { url: string }).url;
}

async function pngSize(pathname: string): Promise<string> {
  const response = await fetch(site.url(pathname));
  expect(response.status, pathname).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
  return `${meta.format} ${meta.width}x${meta.height}`;
}

beforeAll(async () => {
  site = await startServer();
  const session = await loginAsAdmin(site);
  auth = bearer(session);
  adminCookie = session.cookie;
});

afterAll(async () => {
  await site?.stop();
});

describe('site settings', () => {
  let shareImage = '';
  let logo = '';
  let articleId = 0;

  it('starts with the built-in settings and the demo social links', async () => {
    const answer = await call(site, '/api/admin/settings', { headers: auth });
    expect(answer.status, answer.text).toBe(200);
    const { settings, demo } = answer.body as { settings: Json; demo: Json };
    expect(settings.site_title).toBe('Study Site');
    expect(settings.brand_color).toBe('#1d4ed8');
    expect(demo.blogs).toBeGreaterThan(20);
    const home = await get('/');
    expect(home.body).toContain('<title>Study Site</title>');
    expect(home.body).toContain('href="https://wa.me/15550100000"');
  });

  it("gives the demo's dashboard a month of views, leaving today to real readers", async () => {
    const answer = await fetch(site.url('/admin/dashboard'), { headers: { Cookie: adminCookie } });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    const rows = [...html.matchAll(/<time datetime="(\d{4}-\d{2}-\d{2})"[^<]*<\/time>\s*<\/td>\s*<td>(\d+)<\/td>/g)].map((m) => ({
      day: m[1]!,
      views: Number(m[2]),
    }));
    expect(rows).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    const past = rows.filter((row) => row.day !== today);
    expect(past.filter((row) => row.views > 0).length).toBeGreaterThan(20);
    expect(new Set(past.map((row) => row.views)).size).toBeGreaterThan(5);
    expect(html).not.toContain('No views in the last 7 days');
  });

  it('refuses bad input with a message for each field, and changes nothing', async () => {
    const answer = await sendJson(
      site,
      'PUT',
      '/api/admin/settings',
      {
        site_title: '  ',
        meta_description: 'too short',
        brand_color: 'teal',
        follow_twitter: 'twitter.com/me',
        logo: 'https://x.example/a.png',
      },
      auth,
    );
    const body = expectError(answer, 400, 'invalid_input');
    expect(body.fields).toEqual({
      site_title: 'Site title is required.',
      meta_description: 'Meta description must be 20 to 300 characters.',
      brand_color: 'Brand colour must be a hex colour such as #1d4ed8.',
      follow_twitter: 'Twitter link must be a full http(s) address, or empty to hide the button.',
      logo: 'Logo must be an image uploaded to this site.',
    });
    expect(body.message).toContain('Site title is required.');
    expect((await get('/')).body).toContain('<title>Study Site</title>');
  });

  it("names the home-screen icon with whole words of the title, or the owner's short name", async () => {
    const shortName = async () =>
      (JSON.parse(await get('/manifest.webmanifest').then((a) => a.body)) as { short_name: string }).short_name;
    const put = (body: Json) => sendJson(site, 'PUT', '/api/admin/settings', body, auth);
    expect((await put({ site_title: 'Newcomer Notes for Physics' })).status).toBe(200);
    await eventually('/manifest.webmanifest', (b) => b.includes('Newcomer Notes for Physics'));
    expect(await shortName()).toBe('Newcomer');
    expect((await put({ short_name: 'NN Physics' })).status).toBe(200);
    await eventually('/manifest.webmanifest', (b) => b.includes('"short_name": "NN Physics"'));
    const refused = expectError(await put({ short_name: 'Far too long a name' }), 400, 'invalid_input');
    expect(refused.fields).toEqual({ short_name: 'Short name must be at most 12 characters.' });
    expect((await put({ site_title: 'Study Site', short_name: '' })).status).toBe(200);
    await eventually('/manifest.webmanifest', (b) => b.includes('"short_name": "Study Site"'));
  });

  it("lays every page out in the site language's direction, public and admin, and refreshes stored pages when it changes", async () => {
    const put = (body: Json) => sendJson(site, 'PUT', '/api/admin/settings', body, auth);
    const html = (lang: string, dir: string) => `<html lang="${lang}" dir="${dir}">`;
    const blogs = (await call(site, '/api/blogs?limit=1')).body as Array<{ id: number }>;
    const article = `/blog/${blogs[0]!.id}`;
    expect((await get('/')).body).toContain(html('en', 'ltr'));
    expect((await get(article)).body).toContain('<meta property="og:locale" content="en_GB">');

    const refused = expectError(await put({ site_language: 'Arabic' }), 400, 'invalid_input');
    expect(refused.fields).toEqual({ site_language: 'Site language must be a language code such as en, ar, he or pt-BR.' });

    const saved = await put({ site_language: 'ar-eg' });
    expect(saved.status, saved.text).toBe(200);
    expect(((saved.body as Json).settings as Json).site_language).toBe('ar-EG');
    // The home page was re-rendered before the save answered; an article follows in the background.
    expect((await get('/')).body).toContain(html('ar-EG', 'rtl'));
    const articleHtml = await eventually(article, (b) => b.includes(html('ar-EG', 'rtl')));
    expect(articleHtml).toContain('<meta property="og:locale" content="ar_EG">');
    expect(await eventually('/rss.xml', (b) => b.includes('<language>ar-EG</language>'))).toContain('<language>ar-EG</language>');
    const manifest = JSON.parse(await eventually('/manifest.webmanifest', (b) => b.includes('ar-EG'))) as Json;
    expect([manifest.lang, manifest.dir]).toEqual(['ar-EG', 'rtl']);
    const admin = await fetch(site.url('/admin/settings'), { headers: { Cookie: adminCookie } });
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain(html('ar-EG', 'rtl'));

    expect((await put({ site_language: 'en' })).status).toBe(200);
    expect((await get('/')).body).toContain(html('en', 'ltr'));
    await eventually(article, (b) => b.includes(html('en', 'ltr')));
  });

  it('refuses a brand colour that fails WCAG AA, naming the ratio and a darker shade that passes', async () => {
    const answer = await sendJson(site, 'PUT', '/api/admin/settings', { brand_color: '#38bdf8' }, auth);
    const body = expectError(answer, 400, 'invalid_input');
    const message = (body.fields as Json).brand_color as string;
    expect(message).toMatch(
      /^Brand colour #38bdf8 has a contrast of \d\.\d\d:1 .* WCAG AA needs 4\.5:1\. Use a darker shade such as #[0-9a-f]{6}\.$/,
    );
    const suggestion = /(#[0-9a-f]{6})\.$/.exec(message)![1]!;
    const accepted = await sendJson(site, 'PUT', '/api/admin/settings', { brand_color: suggestion }, auth);
    expect(accepted.status, accepted.text).toBe(200);
  });

  it('puts every setting on every page it belongs on: main pages at once, the rest after the background refresh', async () => {
    shareImage = await upload(1200, 630);
    logo = await upload(400, 120);
    const favicon = await upload(300, 300);
    const saved = await sendJson(
      site,
      'PUT',
      '/api/admin/settings',
      { ...SETTINGS, logo, favicon, share_image: shareImage },
      auth,
    );
    expect(saved.status, saved.text).toBe(200);
    const answer = saved.body as Json & { live_ms: number; refresh: { queued: number }; settings: Json };
    expect(answer.message).toBe('Settings saved.');
    expect(answer.live_ms).toBeGreaterThan(0);
    expect(answer.settings.site_title).toBe('Maple Notes');

    const blogs = (await call(site, '/api/blogs?limit=1')).body as Array<{ id: number; title: string }>;
    articleId = blogs[0]!.id;
    const mainPages = ['/', '/blogs', '/download', '/about', '/contact'];
    const otherPages = [`/blog/${articleId}`, '/?page=2', '/blogs?page=2'];
    const origin = site.origin;
    for (const pathname of [...mainPages, ...otherPages]) {
      // The main pages were re-rendered before the save answered: no waiting for them.
      const html = mainPages.includes(pathname)
        ? (await get(pathname)).body
        : await eventually(pathname, (b) => b.includes('Maple Notes'));
      expect(html, pathname).toMatch(/<title>([^<]+ \| )?Maple Notes<\/title>/);
      expect(html).toContain('<meta property="og:site_name" content="Maple Notes">');
      expect(html).toContain('style="--brand: #0f766e; --brand-dark: #0a4d48"');
      expect(html).toMatch(/<link rel="icon" href="\/uploads\/icons\/[a-z0-9]+-32\.png" type="image\/png" sizes="32x32">/);
      expect(html).toMatch(/<link rel="apple-touch-icon" href="\/uploads\/icons\/[a-z0-9]+-180\.png" sizes="180x180">/);
      expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">');
      expect(html).toContain(`<img class="brand-logo" src="${logo}"`);
      expect(text(between(html, '<a class="brand"', '</a>'))).toBe('Maple Notes Revision that sticks');
      const footer = between(html, '<footer', '</footer>');
      expect(footer).toContain(
        '<p class="footer-blurb">Maple Notes is written by two chemistry teachers.\nNew notes every Sunday.</p>',
      );
      expect(text(between(footer, '<h2 id="footer-follow"', '</section>'))).toBe('Follow Us Facebook (opens in a new tab)');
      expect(footer).toContain('href="https://www.facebook.com/maplenotes"');
      expect(text(footer)).toContain(`© ${new Date().getFullYear()} Maple Notes. All rights reserved.`);
      // An empty link hides its button: Instagram is gone from the floating toggle.
      const float = between(html, '<aside class="social-float"', '</aside>');
      expect(text(float)).toBe('WhatsApp (opens in a new tab) YouTube (opens in a new tab) Social links');
      expect(float).toContain('href="https://wa.me/4400000001"');
    }

    // The home page has no picture of its own beyond its carousel; a list page uses the defaults.
    const list = (await get('/blogs?page=2')).body;
    expect(list).toContain(`<meta property="og:image" content="${origin}${shareImage}">`);
    const home = (await get('/')).body;
    expect(home).toContain(`<meta name="description" content="${SETTINGS.meta_description}">`);
    expect(home).toContain(`<meta property="og:description" content="${SETTINGS.meta_description}">`);
    expect(home).toContain('<title>Maple Notes</title>');

    const rss = await eventually('/rss.xml', (b) => b.includes('Maple Notes'));
    expect(between(rss, '<channel>', '<item>')).toContain('<title>Maple Notes</title>');
    expect(rss).toContain(`<description>${SETTINGS.meta_description}</description>`);

    const manifestText = await eventually('/manifest.webmanifest', (b) => b.includes('Maple Notes'));
    const manifest = JSON.parse(manifestText) as {
      name: string;
      theme_color: string;
      icons: Array<{ src: string; sizes: string }>;
    };
    expect(manifest.name).toBe('Maple Notes');
    expect(manifest.theme_color).toBe('#0f766e');
    expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);
    for (const icon of manifest.icons) expect(await pngSize(icon.src)).toBe(`png ${icon.sizes}`);
    const base = manifest.icons[0]!.src.replace(/-192\.png$/, '');
    expect(await pngSize(`${base}-32.png`)).toBe('png 32x32');
    expect(await pngSize(`${base}-180.png`)).toBe('png 180x180');

    // The admin follows the background refresh as the blog form does: it drains.
    await untilRefreshDrained(site, auth);
  });

  it('keeps an image the settings use when the article that also used it is deleted', async () => {
    const categories = (await call(site, '/api/categories')).body as Array<{ id: number }>;
    const created = await sendJson(
      site,
      'POST',
      '/api/blogs',
      { title: 'Uses the logo', content: '<p>x</p>', category_id: categories[0]!.id, image: logo, isVideo: '0' },
      auth,
    );
    expect(created.status, created.text).toBe(201);
    expect((await sendJson(site, 'DELETE', `/api/blogs/${(created.body as { id: number }).id}`, {}, auth)).status).toBe(200);
    expect((await fetch(site.url(logo))).status).toBe(200);
  });

  it('lets the admin write About with the article editor’s sanitizing, keeping the text it replaced', async () => {
    const empty = await sendJson(site, 'PUT', '/api/admin/pages/about', { content: '<p> </p>' }, auth);
    expect(expectError(empty, 400, 'invalid_input').fields).toEqual({ content: 'The page needs some text.' });
    expectError(await sendJson(site, 'PUT', '/api/admin/pages/team', { content: '<p>x</p>' }, auth), 404, 'not_found');

    const before = (await call(site, '/api/admin/pages/about', { headers: auth })).body as Json;
    expect(before.content).toContain('Maple Notes is a small team of teachers');
    const saved = await sendJson(
      site,
      'PUT',
      '/api/admin/pages/about',
      {
        content:
          '<h2>Who we are</h2><p>Two teachers in <strong>Leeds</strong>.</p><script>alert(1)</script><img src=x onerror="alert(2)">',
        content_source: '## Who we are\n\nTwo teachers in **Leeds**.',
      },
      auth,
    );
    expect(saved.status, saved.text).toBe(200);
    expect((saved.body as Json).message).toBe('About Us page saved.');
    // Fresh when the save answers.
    const about = (await get('/about')).body;
    const main = between(about, '<main', '</main>');
    expect(main).toContain('<h2>Who we are</h2><p>Two teachers in <strong>Leeds</strong>.</p>');
    expect(main).not.toContain('<script>alert');
    expect(main).not.toContain('onerror');
    expect(main).not.toContain('small team of teachers');
    expect(about).toContain('<meta name="description" content="Who we are: Two teachers in Leeds.">');
    const db = new SQLite(site.databasePath, { readonly: true });
    try {
      const row = db.prepare("select content_source from info_pages where slug = 'about'").get() as Json;
      expect(row.content_source).toBe('## Who we are\n\nTwo teachers in **Leeds**.');
      // The replaced built-in text is the first revision, the save the second.
      const revisions = db
        .prepare("select action, content from info_page_revisions where slug = 'about' order by id")
        .all() as Json[];
      expect(revisions.map((r) => r.action)).toEqual(['builtin', 'update']);
      expect(revisions[0]!.content).toContain('Maple Notes is a small team of teachers');
    } finally {
      db.close();
    }
    // Contact still shows its built-in text.
    expect(text((await get('/contact')).body)).toContain('We read every message');
  });

  it('removes the demo content in one step and leaves an empty, working site', async () => {
    const demoFolder = path.join(site.uploadsDir, 'demo');
    expect(fs.existsSync(demoFolder)).toBe(true);
    const removed = await sendJson(site, 'DELETE', '/api/admin/demo-content', {}, auth);
    expect(removed.status, removed.text).toBe(200);
    const answer = removed.body as Json & { removed: { blogs: number; comments: number; slides: number; categories: number } };
    expect(answer.removed.blogs).toBeGreaterThan(20);
    expect(answer.removed.slides).toBe(3);
    expect(answer.removed.categories).toBeGreaterThanOrEqual(10);
    expect(answer.message).toMatch(/^Demo content removed: \d+ articles, \d+ comments, 3 slides and \d+ categories\.$/);

    expect((await call(site, '/api/blogs')).body).toEqual([]);
    expect((await call(site, '/api/categories')).body).toEqual([]);
    expect((await call(site, '/api/carousel')).body).toEqual([]);
    expect(fs.existsSync(demoFolder)).toBe(false);
    const home = (await get('/')).body;
    expect(text(between(home, '<main', '</main>'))).toContain('No articles found');
    expect(home).not.toContain('/uploads/demo/');
    expect((await get(`/blog/${articleId}`)).status).toBe(404);
    await eventually('/rss.xml', (b) => !b.includes('<item>'));
    // The publisher's own settings stay.
    expect(home).toContain('<title>Maple Notes</title>');
    expect((await call(site, '/api/admin/settings', { headers: auth })).body).toMatchObject({
      demo: { blogs: 0, comments: 0, slides: 0, categories: 0 },
    });
    expectError(await sendJson(site, 'DELETE', '/api/admin/demo-content', {}, auth), 404, 'not_found');

    // And it works: a new category and article show up.
    const category = await sendJson(site, 'POST', '/api/categories', { name: 'Chemistry', sequence: 1 }, auth);
    expect(category.status, category.text).toBe(201);
    const created = await sendJson(
      site,
      'POST',
      '/api/blogs',
      { title: 'Moles, simply', content: '<p>One mole.</p>', category_id: (category.body as { id: number }).id, isVideo: '0' },
      auth,
    );
    expect(created.status, created.text).toBe(201);
    expect((await get('/')).body).toContain('Moles, simply');
    expect((await get(`/blog/${(created.body as { id: number }).id}`)).status).toBe(200);
  });
});
