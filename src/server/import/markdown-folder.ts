import fs from 'node:fs';
import path from 'node:path';
import { markdownHtml } from './markdown-html.ts';
import type { ImportArticle, ImportSite, SkippedItem } from './import-types.ts';
import { refused } from './limits.ts';
import { normaliseOldPath } from '../../shared/old-paths.ts';
import { isSafeRelativePath } from './upload-source.ts';
import { authorOf, dateOf, firstOf, list, splitFrontMatter, text } from './front-matter.ts';

/**
 * A static site's Markdown folder as articles: Hugo (`content/`, YAML or TOML front matter),
 * Jekyll (`_posts/YYYY-MM-DD-slug.md`, `_drafts/`) and AstroPaper (`src/data/blog/` or
 * `src/content/blog/`, `pubDatetime`, `tags`, `ogImage`); any other folder is read whole. Front
 * matter gives the title, date, draft, categories/tags and image; the body is rendered from
 * Markdown (GitHub's flavour) and then goes through the editor's sanitizer like every import.
 * Images are read from the folder (beside the file, or under `static/` / `public/` for an
 * address from the site's top), never from outside it: a link is not followed.
 */

/** The placeholder origin images are addressed by, so the import's file rules find them in the folder. */
const FOLDER_ORIGIN = 'https://markdown-folder.invalid';
const MAX_FILES = 20_000;
const MAX_MARKDOWN_BYTES = 5 * 1024 * 1024;

type Layout = 'jekyll' | 'hugo' | 'astropaper' | 'folder';

const MARKDOWN = /\.(md|markdown|mdx)$/i;

function layoutOf(root: string): { layout: Layout; dirs: string[] } {
  const has = (relative: string) => fs.statSync(path.join(root, relative), { throwIfNoEntry: false })?.isDirectory() === true;
  if (has('_posts')) return { layout: 'jekyll', dirs: ['_posts', ...(has('_drafts') ? ['_drafts'] : [])] };
  if (has('src/data/blog')) return { layout: 'astropaper', dirs: ['src/data/blog'] };
  if (has('src/content/blog')) return { layout: 'astropaper', dirs: ['src/content/blog'] };
  if (has('content')) return { layout: 'hugo', dirs: ['content'] };
  return { layout: 'folder', dirs: [''] };
}

/** Markdown files below `dir`, relative to the root; links and dot-named entries are not followed. */
function listMarkdown(root: string, dir: string, found: string[]): void {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) listMarkdown(root, relative, found);
    else if (entry.isFile() && MARKDOWN.test(entry.name)) {
      found.push(relative);
      if (found.length > MAX_FILES) throw refused(`The folder holds more than ${MAX_FILES} Markdown files.`);
    }
  }
}

/** Where an image address in a file points inside the folder, relative to it; null outside it or not a local file. */
function localImagePath(root: string, fileDir: string, address: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(address) || address.startsWith('//') || address.startsWith('#')) return null;
  let clean: string;
  try {
    clean = decodeURIComponent(address.split(/[?#]/)[0]!);
  } catch {
    return null;
  }
  const candidates = clean.startsWith('/')
    ? ['static', 'public', 'assets', ''].map((base) => path.posix.join(base, clean))
    : [path.posix.join(fileDir, clean)];
  for (const candidate of candidates) {
    const relative = path.posix.normalize(candidate).replace(/^\/+/, '');
    if (!isSafeRelativePath(relative)) continue;
    const stat = fs.lstatSync(path.join(root, ...relative.split('/')), { throwIfNoEntry: false });
    if (stat?.isFile()) return relative;
  }
  return null;
}

const folderAddress = (relative: string) =>
  `${FOLDER_ORIGIN}/content/images/${relative.split('/').map(encodeURIComponent).join('/')}`;

/** Points the body's local images at the folder's files (the import then stores them like uploads). */
function pointImages(html: string, root: string, fileDir: string, notes: string[]): string {
  return html.replace(/(<img\b[^>]*?\ssrc=)(["'])([^"']*)\2/gi, (whole, start: string, quote: string, src: string) => {
    const decoded = src.replace(/&amp;/g, '&');
    if (/^(?:https?:)?\/\//i.test(decoded)) return whole;
    const relative = localImagePath(root, fileDir, decoded);
    if (!relative) {
      notes.push(`image ${decoded}: not in the folder`);
      return whole;
    }
    return `${start}${quote}${folderAddress(relative)}${quote}`;
  });
}

const JEKYLL_NAME = /^(\d{4})-(\d{2})-(\d{2})-(.+)$/;

function mapFile(root: string, layout: Layout, relative: string, now: number): ImportArticle | SkippedItem {
  const sourceId = relative;
  const fileName = path.posix.basename(relative).replace(MARKDOWN, '');
  const fileDir = path.posix.dirname(relative) === '.' ? '' : path.posix.dirname(relative);
  if (fileName === '_index') return { sourceId, title: relative, reason: "a section's list page, not an article" };
  const size = fs.statSync(path.join(root, ...relative.split('/'))).size;
  if (size > MAX_MARKDOWN_BYTES) return { sourceId, title: relative, reason: 'larger than 5 MB' };
  let split: ReturnType<typeof splitFrontMatter>;
  try {
    split = splitFrontMatter(fs.readFileSync(path.join(root, ...relative.split('/')), 'utf8'));
  } catch (error) {
    return { sourceId, title: relative, reason: `front matter could not be read: ${(error as Error).message}` };
  }
  const { fields, body } = split;
  const notes: string[] = [];
  // A Hugo page bundle (`post/index.md`) is named by its folder.
  const bundle = fileName === 'index' && fileDir ? path.posix.basename(fileDir) : null;
  const jekyll = JEKYLL_NAME.exec(fileName);
  const slug = text(fields.slug) || (jekyll ? jekyll[4]! : (bundle ?? fileName));
  const heading = /^#\s+(.+)$/m.exec(body);
  const title = text(fields.title) || (heading ? heading[1]!.trim() : slug.replace(/[-_]+/g, ' '));
  const date =
    dateOf(firstOf(fields, ['date', 'pubDatetime', 'publishDate', 'pubDate', 'published_at'])) ??
    (jekyll ? dateOf(`${jekyll[1]}-${jekyll[2]}-${jekyll[3]}`) : null);
  if (!date) return { sourceId, title, reason: 'no date in its front matter or file name' };
  const draft =
    fields.draft === true ||
    fields.draft === 'true' ||
    fields.published === false ||
    (layout === 'jekyll' && relative.startsWith('_drafts/'));
  const future = Date.parse(date) > now;
  const categories = list(firstOf(fields, ['categories', 'category']));
  const tags = list(fields.tags);
  const image =
    text(firstOf(fields, ['image', 'cover', 'featured_image', 'feature_image', 'ogImage', 'thumbnail'])) ||
    list(fields.images)[0] ||
    '';
  let imageUrl: string | null = null;
  if (image) {
    if (/^https?:\/\//i.test(image)) notes.push(`featured image ${image}: on another site, not imported`);
    else {
      const found = localImagePath(root, fileDir, image);
      if (found) imageUrl = folderAddress(found);
      else notes.push(`featured image ${image}: not in the folder`);
    }
  }
  const html = markdownHtml(body);
  const section = fileDir
    .split('/')
    .filter((part) => part !== 'content' && part !== '_posts' && part !== bundle)
    .pop();
  const oldPaths = new Set<string>();
  const add = (value: string) => {
    const normal = normaliseOldPath(value);
    if (normal) oldPaths.add(normal);
  };
  add(`/${slug}`);
  if (section) add(`/${section}/${slug}`);
  if (jekyll) {
    add(`/${jekyll[1]}/${jekyll[2]}/${jekyll[3]}/${slug}`);
    add(`/${jekyll[1]}/${jekyll[2]}/${jekyll[3]}/${slug}.html`);
  }
  if (layout === 'astropaper') add(`/posts/${slug}`);
  if (text(fields.url)) add(text(fields.url));
  if (text(fields.permalink)) add(text(fields.permalink));
  if (Array.isArray(fields.aliases)) for (const alias of fields.aliases) if (typeof alias === 'string') add(alias);
  return {
    sourceId,
    title,
    author: authorOf(fields.author ?? fields.authors),
    html: pointImages(html, root, fileDir, notes),
    createdAt: date,
    status: draft ? 'draft' : future ? 'scheduled' : 'published',
    publishAt: !draft && future ? date : null,
    category: categories[0] ?? tags[0] ?? null,
    otherTerms: [...categories.slice(1), ...(categories.length ? tags : tags.slice(1)).map((t) => `#${t}`)],
    imageUrl,
    comments: [],
    oldPaths: [...oldPaths],
    notes,
  };
}

/** Reads a Markdown folder into the one shape `import-run.ts` writes; `source` keys the idempotent re-runs. */
export function readMarkdownFolder(root: string, now = Date.now()): ImportSite {
  const resolved = path.resolve(root);
  const { layout, dirs } = layoutOf(resolved);
  const files: string[] = [];
  for (const dir of dirs) listMarkdown(resolved, dir, files);
  if (files.length === 0) throw refused('The folder holds no Markdown files (.md).');
  const articles: ImportArticle[] = [];
  const skipped: SkippedItem[] = [];
  for (const relative of files.sort()) {
    const mapped = mapFile(resolved, layout, relative, now);
    if ('reason' in mapped) skipped.push(mapped);
    else articles.push(mapped);
  }
  return { source: `markdown:${path.basename(resolved)}`, format: 'markdown', origin: FOLDER_ORIGIN, articles, skipped };
}
