import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { insertBlog } from '../../src/server/db/repositories/blogs.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { loginAsAdmin, type Session } from '../support/auth.ts';
import type { ApiBlog, ApiCategory } from '../support/api-types.ts';
import { buildBlogWrite } from '../support/builders.ts';

/**
 * Every public screen of docs/product.md#public-screens, fetched over HTTP from the real built server: one with
 * the demo content, one started empty (SEED_DEMO=false) for the empty states. Expectations come
 * from the public API's view of the same database, so they do not depend on seed details.
 */

let site: TestServer;
let empty: TestServer;
let admin: Session;
let emptyAdmin: Session;

let blogs: ApiBlog[] = [];
let categories: ApiCategory[] = [];

interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** The visible text of <main>, entities decoded, whitespace collapsed. */
  main: string;
  /** The visible text of the whole body. */
  text: string;
}

function visibleText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<template[\s\S]*?<\/template>|<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;|&#34;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
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

async function fetchPage(server: TestServer, path: string, init: RequestInit = {}): Promise<Page> {
  const response = await fetch(server.url(path), { redirect: 'manual', ...init });
  const html = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    html,
    main: visibleText(between(html, '<main', '</main>')),
    text: visibleText(html),
  };
}

async function api<T>(server: TestServer, path: string): Promise<T> {
  const response = await fetch(server.url(path));
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return (await response.json()) as T;
}

async function adminPost(server: TestServer, session: Session, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(server.url(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Hrefs of the "Read More" article links in an HTML fragment. */
function readMoreLinks(html: string): string[] {
  return [...html.matchAll(/<a class="button" href="(\/blog\/\d+)">Read More/g)].map((m) => m[1]!);
}

function pageButtonLabels(html: string): string[] {
  return [...between(html, '<nav class="pagination"', '</nav>').matchAll(/aria-label="Page (\d+)"/g)].map((m) => m[1]!);
}

function find(predicate: (blog: ApiBlog) => boolean, what: string): ApiBlog {
  const blog = blogs.find(predicate);
  if (!blog) throw new Error(`The demo content has no ${what}`);
  return blog;
}

function expectNotFoundPage(page: Page) {
  expect(page.status).toBe(404);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.main).toContain('Page Not Found');
  expect(page.html).toMatch(/<a class="button" href="\/">Go Back Home<\/a>/);
}

beforeAll(async () => {
  [site, empty] = await Promise.all([startServer(), startServer({ env: { SEED_DEMO: 'false' } })]);
  [admin, emptyAdmin] = await Promise.all([loginAsAdmin(site), loginAsAdmin(empty)]);
  blogs = await api<ApiBlog[]>(site, '/api/blogs?limit=200');
  categories = await api<ApiCategory[]>(site, '/api/categories');
  expect(blogs.length).toBeGreaterThan(12);
  expect(categories.length).toBeGreaterThanOrEqual(10);
});

afterAll(async () => {
  await Promise.all([site?.stop(), empty?.stop()]);
});

describe('layout on every public page', () => {
  const routes = ['/', '/?page=2', '/blogs', '/blogs?page=2', '/download', '/about', '/contact'];

  it.each(routes)('%s answers 200 with the nav, footer and floating social links', async (path) => {
    const page = await fetchPage(site, path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.html).toMatch(/^<!DOCTYPE html><html lang="en" dir="ltr">/i);
    expect(page.html).toContain('<a class="skip-link" href="#main">');
    expect(page.html).toContain('<main id="main"');

    const mainNav = between(page.html, '<nav aria-label="Main">', '</nav>');
    expect(visibleText(mainNav)).toBe(`Home Download ${categories[0]!.name} ${categories[1]!.name}`);
    expect(mainNav).toContain(`href="/blogs?category=${categories[0]!.id}"`);
    const moreRow = between(page.html, '<nav class="nav-categories"', '</nav>');
    expect(visibleText(moreRow)).toBe(
      categories
        .slice(2)
        .map((c) => c.name)
        .join(' '),
    );
    const mobile = visibleText(between(page.html, '<nav aria-label="Mobile">', '</nav>'));
    expect(mobile).toBe(['Home', 'Articles', ...categories.map((c) => c.name)].join(' '));
    const searchForms = [...page.html.matchAll(/<form class="search-form"[^>]*>/g)].map((m) => m[0]);
    expect(searchForms).toHaveLength(2);
    for (const form of searchForms) {
      expect(form).toContain('action="/blogs"');
      expect(form).toContain('method="get"');
    }
    expect(page.html).toContain('placeholder="Search..."');
    expect(page.html).toContain('<a href="/login">Login</a>');
    expect(page.html).toMatch(/class="nav-toggle" aria-expanded="false" aria-controls="mobile-menu"/);

    const footer = between(page.html, '<footer', '</footer>');
    const footerText = visibleText(footer);
    expect(footerText).toContain('Our Blog');
    const quick = between(footer, '<h2 id="footer-quick"', '</nav>');
    expect(visibleText(quick)).toBe(['Quick Links', 'Home', 'Blogs', ...categories.slice(0, 4).map((c) => c.name)].join(' '));
    for (const c of categories.slice(0, 4)) expect(quick).toContain(`href="/blogs?category=${c.id}"`);
    const important = between(footer, '<h2 id="footer-important"', '</nav>');
    expect(visibleText(important)).toBe(
      ['Important Links', ...categories.slice(4, 9).map((c) => c.name), 'About Us', 'Contact'].join(' '),
    );
    expect(important).toContain('href="/about"');
    expect(important).toContain('href="/contact"');
    const follow = visibleText(between(footer, '<h2 id="footer-follow"', '</section>'));
    expect(follow.match(/\(opens in a new tab\)/g)).toHaveLength(4);
    expect(footerText).toContain(`© ${new Date().getFullYear()}`);

    const social = between(page.html, '<aside class="social-float"', '</aside>');
    expect(visibleText(social)).toMatch(/WhatsApp.*Instagram.*YouTube.*Social links/);
    expect(social).toContain('aria-expanded="true"');
    expect(social).not.toMatch(/<ul[^>]*hidden/);
  });

  it.each(routes)('%s has a title, description, canonical address and social cards', async (path) => {
    const page = await fetchPage(site, path);
    expect(page.html).toMatch(/<title>([^<]+ \| )?Study Site<\/title>/);
    expect(page.html).toMatch(/<meta name="description" content="[^"]{20,}">/);
    const canonical = /<link rel="canonical" href="([^"]+)">/.exec(page.html)?.[1];
    expect(canonical).toBeDefined();
    const expectedPath = path === '/?page=2' ? '/?page=2' : path;
    expect(new URL(canonical!).pathname + new URL(canonical!).search).toBe(expectedPath);
    expect(page.html).toContain('<meta property="og:title"');
    expect(page.html).toContain(`<meta property="og:url" content="${canonical}">`);
    expect(page.html).toContain('<meta name="twitter:card"');
    expect(page.html).toContain('<link rel="alternate" type="application/rss+xml"');
  });

  it('never puts anything per-user into a page nor sets a cookie, even for a signed-in admin', async () => {
    // A search page is never stored, so this request really runs the middleware with the cookie.
    for (const path of ['/blogs?search=revision', '/', `/blog/${blogs[0]!.id}`]) {
      const page = await fetchPage(site, path, { headers: { Cookie: admin.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers.get('set-cookie')).toBeNull();
      expect(page.text).not.toContain('Dashboard');
      expect(page.text).not.toContain('Log Out');
    }
  });
});

describe('home page', () => {
  it('shows the carousel, the ticker twice over, 6 articles, page buttons and top viewed', async () => {
    const page = await fetchPage(site, '/');
    expect(page.status).toBe(200);
    const slides = await api<Array<{ title: string; image_url: string; altText: string }>>(site, '/api/carousel');
    expect(slides.length).toBeGreaterThanOrEqual(3);
    const carousel = between(page.html, '<section class="carousel"', '</section>');
    for (const slide of slides) {
      expect(carousel).toContain(slide.title);
      expect(carousel).toContain(`alt="${slide.altText}"`);
    }
    expect(carousel).toContain('aria-label="Previous slide"');
    expect(carousel).toContain('aria-label="Next slide"');
    expect(carousel.match(/class="carousel-dot"/g)).toHaveLength(slides.length);
    expect(page.main).not.toContain('No items to display');

    const recent = await api<Array<{ id: number; title: string }>>(site, '/api/blogs/recent');
    const ticker = between(page.html, '<ul class="ticker-track"', '</ul>');
    const tickerHrefs = [...ticker.matchAll(/href="(\/blog\/\d+)"/g)].map((m) => m[1]);
    const once = recent.map((r) => `/blog/${r.id}`);
    expect(tickerHrefs).toEqual([...once, ...once]);

    const newest = blogs.slice(0, 6).map((b) => `/blog/${b.id}`);
    expect(readMoreLinks(between(page.html, '<ul class="article-grid"', '</ul>'))).toEqual(newest);
    const pages = Math.ceil(blogs.length / 6);
    expect(pageButtonLabels(page.html)).toEqual(Array.from({ length: pages }, (_, i) => String(i + 1)));
    expect(page.html).toContain('<a href="/?page=2" aria-label="Page 2">2</a>');
    expect(page.html).toContain('<a href="/" aria-label="Page 1" aria-current="page">1</a>');

    const top = await api<Array<{ id: number; title: string; clicks: number }>>(site, '/api/blogs/top-viewed');
    const sidebar = between(page.html, '<aside class="sidebar"', '</aside>');
    const sidebarItems = [...sidebar.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(sidebarItems).toHaveLength(Math.min(17, blogs.length));
    expect(sidebarItems[0]).toContain(`href="/blog/${top[0]!.id}"`);
    expect(visibleText(sidebarItems[0]!)).toMatch(new RegExp(`\\d{1,2} [A-Z][a-z]{2} \\d{4} ${top[0]!.clicks} clicks`));
  });

  it('pages through the articles with ?page=N', async () => {
    const pages = Math.ceil(blogs.length / 6);
    const second = await fetchPage(site, '/?page=2');
    expect(readMoreLinks(second.html)).toEqual(blogs.slice(6, 12).map((b) => `/blog/${b.id}`));
    expect(second.html).toContain('<a href="/?page=2" aria-label="Page 2" aria-current="page">2</a>');
    const last = await fetchPage(site, `/?page=${pages}`);
    expect(last.status).toBe(200);
    expect(readMoreLinks(last.html)).toEqual(blogs.slice((pages - 1) * 6).map((b) => `/blog/${b.id}`));
  });

  it.each(['/?page=0', '/?page=abc', '/?page=-1', '/?page=9999'])('%s is the 404 page', async (path) => {
    expectNotFoundPage(await fetchPage(site, path));
  });
});

describe('article list (/blogs)', () => {
  it('lists all articles one per page under All Articles, with page buttons', async () => {
    const first = await fetchPage(site, '/blogs');
    expect(first.status).toBe(200);
    expect(first.html).toContain('<h1 class="page-heading" dir="auto">All Articles</h1>');
    expect(readMoreLinks(first.html)).toEqual([`/blog/${blogs[0]!.id}`]);
    expect(pageButtonLabels(first.html)).toContain('2');
    expect(pageButtonLabels(first.html)).toContain(String(blogs.length));
    const second = await fetchPage(site, '/blogs?page=2');
    expect(readMoreLinks(second.html)).toEqual([`/blog/${blogs[1]!.id}`]);
    expectNotFoundPage(await fetchPage(site, `/blogs?page=${blogs.length + 1}`));
  });

  it('filters by category under the category name', async () => {
    const category = categories.find((c) => blogs.filter((b) => b.category_id === c.id).length >= 2)!;
    const inCategory = blogs.filter((b) => b.category_id === category.id);
    const page = await fetchPage(site, `/blogs?category=${category.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<h1 class="page-heading" dir="auto">${category.name}</h1>`);
    expect(readMoreLinks(page.html)).toEqual([`/blog/${inCategory[0]!.id}`]);
    expect(pageButtonLabels(page.html)).toEqual(inCategory.map((_, i) => String(i + 1)));
    expect(page.html).toContain(`href="/blogs?category=${category.id}&amp;page=2"`);
    const second = await fetchPage(site, `/blogs?category=${category.id}&page=2`);
    expect(readMoreLinks(second.html)).toEqual([`/blog/${inCategory[1]!.id}`]);
  });

  it('says so when a category has no articles, or does not exist', async () => {
    const created = await adminPost(site, admin, '/api/categories', { name: 'Empty Shelf', sequence: 99 });
    for (const id of [created.id, 987654]) {
      const page = await fetchPage(site, `/blogs?category=${id}`);
      // A category that does not exist is a 404 (never stored), with the same text.
      expect(page.status).toBe(id === created.id ? 200 : 404);
      expect(page.html).toContain('<h1 class="page-heading" dir="auto">No articles found in this category</h1>');
      expect(page.main).toContain('No articles found');
      expect(readMoreLinks(page.html)).toEqual([]);
      expect(pageButtonLabels(page.html)).toEqual([]);
    }
  });

  it('shows search results under Search Results for: "{term}"', async () => {
    const target = blogs[3]!;
    const word = target.title
      .split(/\s+/)
      .find((w) => w.length >= 6)!
      .replace(/[^\p{L}\p{N}]/gu, '');
    const page = await fetchPage(site, `/blogs?search=${encodeURIComponent(word)}`);
    expect(page.status).toBe(200);
    expect(page.main).toContain(`Search Results for: "${word}"`);
    expect(page.html).toContain('<meta name="robots" content="noindex">');
    const all = await api<ApiBlog[]>(site, `/api/blogs?search=${encodeURIComponent(word)}`);
    expect(all.map((b) => b.id)).toContain(target.id);
    expect(readMoreLinks(page.html)).toEqual([`/blog/${all[0]!.id}`]);

    const none = await fetchPage(site, '/blogs?search=zzqxv%20wwkjq');
    expect(none.status).toBe(200);
    expect(none.main).toContain('Search Results for: "zzqxv wwkjq"');
    expect(none.main).toContain('No articles found');
    expect(pageButtonLabels(none.html)).toEqual([]);
  });

  it('treats a blank search as no search and survives hostile search text', async () => {
    const blank = await fetchPage(site, '/blogs?search=%20%20%20');
    expect(blank.html).toContain('<h1 class="page-heading" dir="auto">All Articles</h1>');
    for (const text of ['"', 'NEAR(a b)', '<script>alert(1)</script>', 'a OR b AND NOT', '*', '(']) {
      const page = await fetchPage(site, `/blogs?search=${encodeURIComponent(text)}`);
      expect(page.status).toBe(200);
      expect(page.main).toContain(`Search Results for: "${text}"`);
    }
    const page = await fetchPage(site, `/blogs?search=${encodeURIComponent('<script>alert(1)</script>')}`);
    expect(page.html).toContain(
      '<h1 class="page-heading" dir="auto">Search Results for: &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;</h1>',
    );
    // Only inside a quoted attribute value (the description) may the text appear unescaped.
    expect(page.html.replace(/"[^"]*"/g, '""')).not.toContain('<script>alert');
  });

  it.each(['/blogs?category=abc', '/blogs?category=0', '/blogs?page=x'])('%s is the 404 page', async (path) => {
    expectNotFoundPage(await fetchPage(site, path));
  });
});

describe('article page (/blog/:id)', () => {
  async function detail(id: number): Promise<ApiBlog> {
    return api<ApiBlog>(site, `/api/blogs/${id}`);
  }

  it('shows category, title, author, date, content, share links and comments', async () => {
    const blog = find((b) => b.category_id !== null && b.isVideo !== '1', 'article with a category and no video');
    const full = await detail(blog.id);
    const page = await fetchPage(site, `/blog/${blog.id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
    const header = visibleText(between(page.html, '<article', '</header>'));
    expect(header).toMatch(
      new RegExp(
        `^${blog.category_name} ${blog.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} By ${blog.author} \\d{1,2} [A-Z][a-z]{2} \\d{4}`,
      ),
    );
    expect(page.html).toContain('<div class="article-content" dir="auto">');
    expect(page.html).toContain(`<title>${blog.title.replace(/'/g, '&#39;')} | Study Site</title>`);

    const canonical = /<link rel="canonical" href="([^"]+)">/.exec(page.html)![1]!;
    expect(new URL(canonical).pathname).toBe(`/blog/${blog.id}`);
    const share = between(page.html, 'id="share-heading"', '</section>');
    const encoded = encodeURIComponent(canonical);
    expect(share).toContain(`https://www.facebook.com/sharer/sharer.php?u=${encoded}`);
    expect(share).toContain(`https://twitter.com/intent/tweet?url=${encoded}`);
    expect(share).toContain(`https://www.linkedin.com/sharing/share-offsite/?url=${encoded}`);
    expect(share).toMatch(new RegExp(`https://wa\\.me/\\?text=[^"]*${encoded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(visibleText(share)).toMatch(/Share on Facebook Share on Twitter Share on LinkedIn Share on WhatsApp/);

    const comments = full.comments ?? [];
    expect(page.main).toContain(`Comments (${comments.length})`);
    for (const c of comments) expect(page.main).toContain(c.comment);

    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page.html)?.[1];
    expect(ld).toBeDefined();
    const data = JSON.parse(ld!) as Record<string, unknown>;
    expect(data['@type']).toBe('Article');
    expect(data.headline).toBe(blog.title);
    expect(page.html).toContain('<meta property="og:type" content="article">');
  });

  it('says General for an article without a category', async () => {
    const blog = find((b) => b.category_id === null, 'article without a category');
    const page = await fetchPage(site, `/blog/${blog.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<p class="category-label" dir="auto">General</p>');
  });

  it('shows the PDF badge and the Download Attached PDF link only when a PDF exists', async () => {
    const withPdf = find((b) => !!b.pdf_drive_link, 'article with a PDF');
    const page = await fetchPage(site, `/blog/${withPdf.id}`);
    expect(page.html).toContain('<span class="badge badge-pdf">PDF</span>');
    expect(page.html).toContain(`<a class="button" href="${withPdf.pdf_drive_link}" download>Download Attached PDF</a>`);
    const pdf = await fetch(site.url(withPdf.pdf_drive_link!));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const withoutPdf = find((b) => !b.pdf_drive_link, 'article without a PDF');
    const other = await fetchPage(site, `/blog/${withoutPdf.id}`);
    expect(other.html).not.toContain('badge-pdf');
    expect(other.main).not.toContain('Download Attached PDF');
  });

  it('shows Support This Content with Proceed to Payment when there is a payment link', async () => {
    const paid = find((b) => !!b.pay_link, 'article with a payment link');
    const page = await fetchPage(site, `/blog/${paid.id}`);
    const support = between(page.html, 'id="support-heading"', '</section>');
    expect(visibleText(support)).toContain('Support This Content');
    expect(support).toMatch(new RegExp(`<a class="button" href="${paid.pay_link}"[^>]*>Proceed to Payment</a>`));
    const unpaid = find((b) => !b.pay_link, 'article without a payment link');
    expect((await fetchPage(site, `/blog/${unpaid.id}`)).main).not.toContain('Support This Content');
  });

  it('shows the form section titled with the form name and showing the link', async () => {
    const withForm = find((b) => !!b.form_name && !!b.form_link, 'article with a form');
    const page = await fetchPage(site, `/blog/${withForm.id}`);
    expect(page.html).toContain(`<h2 id="form-heading">${withForm.form_name}</h2>`);
    expect(visibleText(between(page.html, 'id="form-heading"', '</section>'))).toContain(withForm.form_link!);
    expect(page.html).toContain(`href="${withForm.form_link}"`);
  });

  it('says No comments yet. Be the first to comment! when there are none', async () => {
    let none: ApiBlog | undefined;
    for (const blog of blogs) {
      const full = await detail(blog.id);
      if ((full.comments ?? []).length === 0) {
        none = full;
        break;
      }
    }
    expect(none).toBeDefined();
    const page = await fetchPage(site, `/blog/${none!.id}`);
    expect(page.main).toContain('Comments (0)');
    expect(page.main).toContain('No comments yet. Be the first to comment!');
    const form = between(page.html, '<form class="comment-form"', '</form>');
    expect(form).toMatch(/<textarea[^>]*name="comment"[^>]*required/);
    expect(form).toMatch(/<input[^>]*required[^>]*name="username"|<input[^>]*name="username"[^>]*required/);
    expect(form).not.toContain('name="contact"');
  });

  it('shows a YouTube video as a click-to-play preview that loads nothing from YouTube yet', async () => {
    const video = find((b) => b.isVideo === '1' && /youtu/.test(b.video_link ?? ''), 'YouTube video article');
    const page = await fetchPage(site, `/blog/${video.id}`);
    const id = /(?:v=|youtu\.be\/)([\w-]{11})/.exec(video.video_link!)![1]!;
    expect(page.html).toContain(`<img src="https://i.ytimg.com/vi/${id}/hqdefault.jpg"`);
    expect(page.html).toContain(`data-embed="https://www.youtube.com/embed/${id}?autoplay=1"`);
    expect(page.html).not.toMatch(/<iframe/);
    expect(page.html).not.toContain('<img class="article-image"');
  });

  it('embeds other video addresses as they are and shows no video for an invalid one', async () => {
    const db = openDatabase(site.databasePath);
    try {
      const base = { content: '<p>Video test</p>', image: '/uploads/demo/demo-1.png', is_video: 1 };
      // Dated long ago so they sort last and leave the lists other tests look at unchanged.
      const old = '2001-01-01T00:00:00.000Z';
      const otherId = await insertBlog(
        db.db,
        buildBlogWrite({ ...base, title: 'Other host video', video_link: 'https://player.vimeo.com/video/76979871' }),
        'Video test',
        old,
      );
      const badId = await insertBlog(
        db.db,
        buildBlogWrite({ ...base, title: 'Broken video', video_link: 'not a url at all' }),
        'Video test',
        old,
      );
      const other = await fetchPage(site, `/blog/${otherId}`);
      expect(other.html).toMatch(/<iframe src="https:\/\/player\.vimeo\.com\/video\/76979871" title="Video: Other host video"/);
      expect(other.html).not.toContain('<img class="article-image"');
      const bad = await fetchPage(site, `/blog/${badId}`);
      expect(bad.status).toBe(200);
      expect(bad.html).not.toMatch(/<iframe|video-preview/);
      expect(bad.html).toContain('<img class="article-image" src="/uploads/demo/demo-1.png"');
    } finally {
      db.sqlite.close();
    }
  });

  it('loads no island eagerly: the comments are the only island and hydrate when visible', async () => {
    const page = await fetchPage(site, `/blog/${blogs[0]!.id}`);
    const islands = [...page.html.matchAll(/<astro-island [^>]*>/g)].map((m) => m[0]);
    // The nav's search and sign-in area are plain HTML with a small script: no React for them.
    expect(islands).toHaveLength(1);
    for (const island of islands) expect(island).toMatch(/client="(visible|idle)"/);
    expect(islands.find((i) => i.includes('CommentsSection'))).toMatch(/client="visible"/);
    expect(page.html).not.toMatch(/<link rel="modulepreload"[^>]*react/i);
    expect(page.html).not.toMatch(/<script type="module" src="[^"]*(react|client)[^"]*"/);
    expect(page.html).not.toMatch(/\son[a-z]+="/);
  });

  it("renders each island's ids under the prefix the browser hydrates it with", async () => {
    const made: Array<{ prefix: string; id: string }> = [];
    for (const path of ['/', `/blog/${blogs[0]!.id}`]) {
      const page = await fetchPage(site, path);
      for (const [, prefix, inner] of page.html.matchAll(/<astro-island [^>]*prefix="([^"]+)"[^>]*>([\s\S]*?)<\/astro-island>/g))
        for (const [, id] of inner!.matchAll(/\s(?:id|for|aria-[a-z]+)="(_[^"]*)"/g)) made.push({ prefix: prefix!, id: id! });
    }
    // The comment form's fields and their labels at least (useId); each must carry its island's prefix.
    expect(made.length).toBeGreaterThanOrEqual(4);
    for (const { prefix, id } of made) expect(id).toMatch(new RegExp(`^_${prefix}R`));
  });

  it.each(['/blog/999999', '/blog/0', '/blog/abc', '/blog/1.5', '/blog/-3', '/blog/01'])('%s is the 404 page', async (path) => {
    expectNotFoundPage(await fetchPage(site, path));
  });
});

describe('downloads (/download)', () => {
  it('lists exactly the articles with a PDF, each with date, title, Read More and Pdf Download', async () => {
    const page = await fetchPage(site, '/download');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1 class="page-heading">Downloads</h1>');
    const withPdf = blogs.filter((b) => b.pdf_drive_link);
    const rows = [...between(page.html, '<tbody>', '</tbody>').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
    expect(rows).toHaveLength(withPdf.length);
    withPdf.forEach((blog, i) => {
      const row = rows[i]!;
      expect(visibleText(row)).toMatch(new RegExp(`^\\d{1,2} [A-Z][a-z]{2} \\d{4} `));
      expect(visibleText(row)).toContain(blog.title);
      expect(row).toContain(`<a href="/blog/${blog.id}">Read More`);
      expect(row).toContain(`<a href="${blog.pdf_drive_link}" download>Pdf Download`);
    });
    const first = await fetch(site.url(withPdf[0]!.pdf_drive_link!));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
  });
});

describe('static pages, 404 and feeds', () => {
  it('has About Us and Contact pages', async () => {
    const about = await fetchPage(site, '/about');
    expect(about.html).toContain('<h1 class="page-heading">About Us</h1>');
    const contact = await fetchPage(site, '/contact');
    expect(contact.html).toContain('<h1 class="page-heading">Contact</h1>');
    expect(contact.html).toContain('href="mailto:');
  });

  it.each(['/no-such-page', '/blogs/extra', '/blog', '/downloads', '/a/b/c?x=1'])(
    'unknown route %s is the 404 page',
    async (path) => {
      const page = await fetchPage(site, path);
      expectNotFoundPage(page);
      expect(page.html).toContain('<meta name="robots" content="noindex">');
      expect(page.headers.get('set-cookie')).toBeNull();
    },
  );

  it('answers unknown /api routes with a JSON 404', async () => {
    const response = await fetch(site.url('/api/no-such-thing'));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });

  it('serves a sitemap listing every article and category', async () => {
    const response = await fetch(site.url('/sitemap.xml'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await response.text();
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname + new URL(m[1]!).search);
    for (const blog of blogs) expect(locs).toContain(`/blog/${blog.id}`);
    for (const c of categories) expect(locs).toContain(`/blogs?category=${c.id}`);
    expect(locs).toEqual(expect.arrayContaining(['/', '/blogs', '/download', '/about', '/contact']));
  });

  it('serves an RSS feed of the newest articles', async () => {
    const response = await fetch(site.url('/rss.xml'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const xml = await response.text();
    expect(xml).toContain('<rss version="2.0"');
    const links = [...xml.matchAll(/<item>\s*<title>[^<]*<\/title>\s*<link>([^<]+)<\/link>/g)].map(
      (m) => new URL(m[1]!).pathname,
    );
    const newest = await api<ApiBlog[]>(site, '/api/blogs?limit=20');
    expect(links).toEqual(newest.map((b) => `/blog/${b.id}`));
  });

  it('serves robots.txt pointing at the sitemap and keeping crawlers out of admin and API', async () => {
    const response = await fetch(site.url('/robots.txt'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/admin$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toMatch(/^Sitemap: http:\/\/[^\s]+\/sitemap\.xml$/m);
  });
});

describe('an empty site', () => {
  it('shows the empty states and no page buttons', async () => {
    const home = await fetchPage(empty, '/');
    expect(home.status).toBe(200);
    expect(home.main).toContain('No items to display');
    expect(home.main).toContain('No articles found');
    expect(pageButtonLabels(home.html)).toEqual([]);
    expect(home.html).not.toContain('<nav class="pagination"');

    const list = await fetchPage(empty, '/blogs');
    expect(list.html).toContain('<h1 class="page-heading" dir="auto">All Articles</h1>');
    expect(list.main).toContain('No articles found');
    expect(list.html).not.toContain('<nav class="pagination"');

    const downloads = await fetchPage(empty, '/download');
    expect(downloads.main).toContain('No articles found');
    expect(downloads.html).not.toContain('<table');
  });

  it('shows No date and Untitled for a download row without them', async () => {
    const db = openDatabase(empty.databasePath);
    try {
      await insertBlog(db.db, buildBlogWrite({ title: '', pdf_drive_link: '/uploads/none.pdf' }), 'x', 'not a date');
    } finally {
      db.sqlite.close();
    }
    // A real change through the admin API refreshes the stored downloads page.
    const category = await adminPost(empty, emptyAdmin, '/api/categories', { name: 'Only', sequence: 1 });
    await adminPost(empty, emptyAdmin, '/api/blogs', {
      title: 'Dated notes',
      content: '<p>Notes</p>',
      category_id: category.id,
      pdf_link: 'https://example.org/notes.pdf',
      isVideo: '0',
    });
    const page = await fetchPage(empty, '/download');
    const rows = [...between(page.html, '<tbody>', '</tbody>').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => visibleText(m[1]!));
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.includes('Dated notes'))).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4} Dated notes/);
    expect(rows.find((r) => !r.includes('Dated notes'))).toMatch(/^No date Untitled Read More/);
  });
});
