import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { ApiBlog } from '../support/api-types.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startServer, type TestServer } from '../support/server.ts';
import { registerUser } from '../support/auth.ts';
import { buildBlogBody } from '../support/builders.ts';
import { findLayoutProblems } from './gallery-checks.ts';

/**
 * The gallery: every public and admin screen, as an anonymous visitor, a reader and the admin, at
 * 390, 1024, 1280 and 1440 px in the light and the dark theme, with the demo content, in an Arabic
 * (right-to-left) site, and with the demo removed. Each view is checked for what a person would
 * call broken (gallery-checks.ts) and by axe-core (the tags of a11y.spec.ts). With GALLERY_DIR set
 * (`npm run gallery`) every view is also saved as a full-page PNG there, named so the widths and
 * themes of one screen sort side by side. It runs its own server: it changes the settings and
 * removes the demo, which the other browser tests rely on.
 */

const WIDTHS = [390, 1024, 1280, 1440] as const;
const THEMES = ['light', 'dark'] as const;
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const GALLERY_DIR = process.env.GALLERY_DIR ? path.resolve(process.env.GALLERY_DIR) : null;

type Role = 'anonymous' | 'reader' | 'admin';
type Phase = 'demo' | 'arabic' | 'empty';
const ROLES: Role[] = ['anonymous', 'reader', 'admin'];

const AXE_VIEWS: Record<Phase, Array<{ width: number; theme: (typeof THEMES)[number] }>> = {
  demo: [
    { width: 390, theme: 'light' },
    { width: 1280, theme: 'dark' },
  ],
  arabic: [
    { width: 390, theme: 'dark' },
    { width: 1280, theme: 'light' },
  ],
  empty: [
    { width: 390, theme: 'light' },
    { width: 1280, theme: 'dark' },
  ],
};

let server: TestServer;
let reader = { email: '', password: '' };

// The phases build on each other (the language changes, then the demo goes); the screens take long.
test.describe.configure({ mode: 'serial', timeout: 1_800_000 });

test.beforeAll(async () => {
  server = await startServer();
  const account = await registerUser(server);
  reader = { email: account.email, password: account.password };
  if (GALLERY_DIR) fs.mkdirSync(GALLERY_DIR, { recursive: true });
});

test.afterAll(async () => {
  await server?.stop();
});

async function api<T>(page: Page, method: 'GET' | 'POST' | 'PUT' | 'DELETE', pathname: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(server.url(pathname), { method, data, headers: { Origin: server.origin } });
  expect(response.status(), `${method} ${pathname}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function signedInPage(browser: Browser, role: Role): Promise<Page> {
  // axe-core wants a page of a context of its own (browser.newPage's context is closed with the page).
  const context = await browser.newContext();
  const page = await context.newPage();
  // The thumbnails come from YouTube; offline they fall back to the plain panel (as in a11y.spec.ts).
  await page.route(/^https:\/\/(i\.ytimg\.com|www\.youtube\.com)\//, (route) => route.abort());
  if (role !== 'anonymous') {
    const account = role === 'admin' ? { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } : reader;
    const response = await page.request.post(server.url('/api/users/login'), { data: account });
    expect(response.status()).toBe(200);
  }
  return page;
}

/**
 * The Arabic site's own article, in Arabic script: title, text, picture, a comment. It is the
 * newest, so it leads the home page, the ticker and the admin's list, and its page is shown.
 */
const ARABIC = {
  title: 'التمثيل الضوئي: كيف يصنع النبات غذاءه؟',
  content:
    '<p>تحوّل النباتات ضوء الشمس والماء وثاني أكسيد الكربون إلى سكر وأكسجين، وتجري هذه العملية في البلاستيدات الخضراء.</p>' +
    '<h2>الأفكار الرئيسية</h2><ul><li>الضوء مصدر الطاقة.</li><li>الكلوروفيل يمتص الضوء الأحمر والأزرق.</li></ul>' +
    '<p>اقرأ المقال مرة للصورة الكاملة، ثم حلّ الأمثلة بالقلم (مثال: 6CO₂ + 6H₂O).</p>',
  comment: 'شرح واضح جداً، شكراً لكم! هل يمكن إضافة ملف PDF؟',
  search: 'النبات',
};
let arabicArticle: number | null = null;

/** The screens of the site as it stands: articles and categories come from the public API. */
async function screens(page: Page, phase: Phase): Promise<Record<Role, string[]>> {
  const blogs = await api<ApiBlog[]>(page, 'GET', '/api/blogs?limit=200');
  const categories = await api<Array<{ id: number }>>(page, 'GET', '/api/categories');
  const withImage = blogs.find((b) => b.image) ?? blogs[0];
  const video = blogs.find((b) => b.isVideo === '1');
  const articles = [withImage, video].filter((b) => b !== undefined).map((b) => `/blog/${b.id}`);
  const publicPages = [
    '/',
    '/blogs',
    ...(categories[0] ? [`/blogs?category=${categories[0].id}`] : []),
    '/blogs?search=revision',
    ...(phase === 'arabic' ? [`/blogs?search=${encodeURIComponent(ARABIC.search)}`] : []),
    ...articles,
    '/download',
    '/about',
    '/contact',
    '/login',
    '/register',
    '/no-such-page',
  ];
  const adminPages = [
    '/admin/dashboard',
    '/admin/blogs-manage',
    '/admin/blogs-create',
    ...(blogs[0] ? [`/admin/edit-blog/${blogs[0].id}`] : []),
    '/admin/comments-manage',
    '/admin/category',
    '/admin/carousel',
    '/admin/pages',
    '/admin/settings',
  ];
  return { anonymous: publicPages, reader: ['/', ...articles.slice(0, 1), '/login'], admin: [...adminPages, '/'] };
}

/** Waits for what a person waits for: the islands, the admin's data, the editor. */
async function settle(page: Page): Promise<void> {
  // Pictures below the fold load now, so a full-page screenshot shows them.
  await page.evaluate(() =>
    document.querySelectorAll('img[loading="lazy"]').forEach((img) => img.setAttribute('loading', 'eager')),
  );
  // Islands that hydrate when seen (the comments under an article) are brought into view once.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  if (await page.locator('.rich-editor').count())
    await expect(page.locator('.rich-editor[data-ready="true"]').first()).toBeVisible();
  await page.evaluate(() => document.fonts.ready.then(() => window.scrollTo(0, 0)));
}

const nextFrames = (page: Page) =>
  page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

const fileName = (phase: string, role: Role, pathname: string, width: number, theme: string) => {
  const slug =
    pathname
      .replace(/^\//, '')
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/-$/, '') || 'home';
  return `${phase}--${role}--${slug}--${width}-${theme}.png`;
};

/** Every screen of a role at every width and theme: the problems found, each named with where it was seen. */
async function lookAt(browser: Browser, phase: Phase, role: Role): Promise<string[]> {
  // axe-core takes seconds a run on a busy machine: each screen is checked at the phone width in one
  // theme and at the desktop width in the other, the themes swapping between phases (a11y.spec.ts
  // checks the demo site at the desktop width in both). The reader's screens differ from the
  // visitor's by the header alone: their layout is checked, axe is left to the visitor's.
  const axeAt = role === 'reader' ? [] : AXE_VIEWS[phase];
  const page = await signedInPage(browser, role);
  const found: string[] = [];
  for (const pathname of (await screens(page, phase))[role]) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(server.url(pathname));
    await settle(page);
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await nextFrames(page);
        const where = `${phase}, ${role}, ${pathname} at ${width} px ${theme}`;
        for (const problem of await page.evaluate(findLayoutProblems, { headerOneRow: width >= 1024 }))
          found.push(`${where}: ${problem}`);
        if (axeAt.some((view) => view.width === width && view.theme === theme)) {
          const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
          for (const v of result.violations)
            found.push(`${where}: axe ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        }
        if (GALLERY_DIR)
          await page.screenshot({
            path: path.join(GALLERY_DIR, fileName(phase, role, pathname, width, theme)),
            fullPage: true,
            animations: 'disabled',
          });
      }
    }
  }
  await page.context().close();
  return found;
}

async function setLanguage(browser: Browser, language: string): Promise<void> {
  const page = await signedInPage(browser, 'admin');
  await api(page, 'PUT', '/api/admin/settings', { site_language: language });
  await page.context().close();
}

test('the checks see what a person would call broken', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.setContent(`<!doctype html><html><body style="margin:0">
    <div style="width:500px">A line wider than a phone</div>
    <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" style="width:20px;height:20px">
    <p style="position:absolute;top:100px;left:10px;margin:0">Overlapping words here</p>
    <p style="position:absolute;top:104px;left:30px;margin:0">Other words on top</p>
    <p style="position:absolute;top:300px;left:10px;margin:0">Alone <a href="#">with a link</a></p>
    <p dir="rtl" style="position:absolute;top:400px;left:10px;margin:0">A sentence in a right-to-left box.</p>
    <p dir="rtl" style="position:absolute;top:450px;left:10px;margin:0;unicode-bidi:plaintext">Its own direction.</p>
    <input dir="rtl" placeholder="Search..." style="position:absolute;top:500px;left:10px">
    <input dir="auto" placeholder="Search..." style="position:absolute;top:550px;left:10px">
    <div style="position:absolute;top:600px;left:10px;width:100px;overflow-x:auto"><table><tr>
      <td style="white-space:nowrap">A wide cell of words</td><td><button>Cut</button></td></tr></table></div>
    <p style="position:absolute;top:660px;left:200px;margin:0">Words under a button</p>
    <a class="social-toggle" href="#" style="position:fixed;top:655px;left:200px;width:40px;height:40px;background:#333"></a>
    <p style="position:absolute;top:780px;left:10px;margin:0">Words behind the toolbar</p>
    <div style="position:fixed;bottom:0;left:0;right:0;height:150px;background:#fff">
      <a class="social-whatsapp" href="#" style="display:inline-block;width:40px;height:40px;margin-top:20px">W</a></div>
  </body></html>`);
  const problems = await page.evaluate(findLayoutProblems, { headerOneRow: false });
  expect(problems).toEqual([
    expect.stringMatching(/^the page scrolls sideways \(500 px in a 390 px window\): <div> "A line wider/),
    expect.stringMatching(/^<button> "Cut" is cut off by <div>.*, which scrolls sideways/),
    expect.stringMatching(/^an image without width and height/),
    '<p> "A sentence in a right-to-left box.": its closing "." is drawn at the start of the line',
    '<input>: its placeholder "Search..." shows its closing mark at the start',
    '<p> "Overlapping words here" overlaps <p> "Other words on top"',
    '<p> "Words under a button" overlaps <a.social-toggle>',
  ]);
});

for (const role of ROLES) {
  test(`with the demo content, every screen looks right to the ${role} at every width in both themes`, async ({ browser }) => {
    expect(await lookAt(browser, 'demo', role)).toEqual([]);
  });
}

test('an Arabic site is mirrored: the brand at the right, the social buttons at the left', async ({ browser }) => {
  await setLanguage(browser, 'ar');
  const admin = await signedInPage(browser, 'admin');
  const [pictured] = await api<ApiBlog[]>(admin, 'GET', '/api/blogs?limit=1');
  const categories = await api<Array<{ id: number }>>(admin, 'GET', '/api/categories');
  const created = await api<{ id: number }>(
    admin,
    'POST',
    '/api/blogs',
    buildBlogBody(categories[0]!.id, {
      title: ARABIC.title,
      content: ARABIC.content,
      content_source: null,
      image: pictured!.image,
    }),
  );
  arabicArticle = created.id;
  await api(admin, 'POST', `/api/blogs/${created.id}/comment`, { comment: ARABIC.comment, username: 'سارة', contact: '' });
  await admin.context().close();
  const page = await signedInPage(browser, 'anonymous');
  await page.goto(server.url('/'));
  await settle(page);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await nextFrames(page);
    const brand = await page.locator('.site-header .brand').boundingBox();
    const float = await page.locator('.social-float').boundingBox();
    expect(brand!.x + brand!.width, `the brand at ${width} px`).toBeGreaterThan(width * 0.6);
    expect(float!.x, `the social buttons at ${width} px`).toBeLessThan(width * 0.2);
  }
  // A page's heading sits at the right like the rest of the page, even when it begins with the
  // site's English words (a search) or is an English category name.
  for (const pathname of [`/blogs?search=${encodeURIComponent(ARABIC.search)}`, '/blogs?category=1']) {
    await page.goto(server.url(pathname));
    const heading = page.locator('h1.page-heading');
    const [text, box] = await heading.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const words = range.getBoundingClientRect();
      const own = el.getBoundingClientRect();
      return [
        { left: words.left, right: words.right },
        { left: own.left, right: own.right },
      ];
    });
    expect(box.right - text.right, `the heading of ${pathname} ends at the right`).toBeLessThan(2);
    expect(text.left - box.left, `the heading of ${pathname} is not at the left`).toBeGreaterThan(20);
  }
  await page.context().close();
});

for (const role of ROLES) {
  test(`an Arabic site looks right to the ${role} on every screen at every width in both themes`, async ({ browser }) => {
    expect(await lookAt(browser, 'arabic', role)).toEqual([]);
  });
}

test('the demo content goes in one step', async ({ browser }) => {
  await setLanguage(browser, 'en');
  const page = await signedInPage(browser, 'admin');
  if (arabicArticle !== null) await api(page, 'DELETE', `/api/blogs/${arabicArticle}`);
  await api(page, 'DELETE', '/api/admin/demo-content');
  expect(await api<ApiBlog[]>(page, 'GET', '/api/blogs?limit=5')).toEqual([]);
  await page.context().close();
});

for (const role of ROLES) {
  test(`with the demo removed, every screen looks right to the ${role} at every width in both themes`, async ({ browser }) => {
    expect(await lookAt(browser, 'empty', role)).toEqual([]);
  });
}
