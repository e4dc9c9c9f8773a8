import { infoPageSlugOf, type ImportArticle, type ImportInfoPage, type ImportSite, type SkippedItem } from './import-types.ts';
import { IMPORT_MESSAGES, checkJsonDepth, refused } from './limits.ts';
import { renderLexical, renderMobiledoc } from './ghost-render.ts';
import { normaliseOldPath } from '../../shared/old-paths.ts';

/**
 * A Ghost export (versions 2 to 5: `db[0].data` with posts, tags, posts_tags, users and
 * posts_authors) as articles: the primary tag (the first) as category, the feature image,
 * status and `published_at`. Content is the `html` Ghost stored beside its editor's document;
 * a post with only `mobiledoc` or `lexical` is rendered from it (`ghost-render.ts`).
 */

/** Ghost writes its own address as this placeholder in exports. */
const GHOST_URL = '__GHOST_URL__';
const PLACEHOLDER_ORIGIN = 'https://ghost-site.invalid';

type Row = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const rows = (value: unknown): Row[] =>
  Array.isArray(value) ? value.filter((v): v is Row => typeof v === 'object' && v !== null) : [];

export interface GhostData {
  title: string;
  data: Row;
}

export function parseGhostJson(text: string): GhostData {
  checkJsonDepth(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw refused(IMPORT_MESSAGES.badJson((error as Error).message));
  }
  const root = parsed as { db?: unknown; data?: unknown };
  const db = Array.isArray(root.db) ? (root.db[0] as { data?: unknown } | undefined) : undefined;
  const data = (db?.data ?? root.data) as Row | undefined;
  if (!data || typeof data !== 'object' || !Array.isArray(data.posts)) throw refused(IMPORT_MESSAGES.notGhost);
  const title = str(rows(data.settings).find((s) => s.key === 'title')?.value);
  return { title, data };
}

function ghostDate(value: unknown): string | null {
  const time = Date.parse(str(value));
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

const fromGhost = (text: string) => text.replaceAll(GHOST_URL, PLACEHOLDER_ORIGIN);

/** A post's editor document as HTML (Ghost 5's lexical, else mobiledoc), nested no deeper than a file may be. */
function renderEditorDocument(post: Row, notes: string[]): string {
  const source = post.lexical ?? post.mobiledoc;
  const text = typeof source === 'string' ? source : JSON.stringify(source);
  checkJsonDepth(text);
  return post.lexical ? renderLexical(text, notes) : renderMobiledoc(text, notes);
}

export function mapGhost({ title, data }: GhostData, now = Date.now()): ImportSite {
  const tags = new Map(rows(data.tags).map((t) => [str(t.id), str(t.name)]));
  const users = new Map(rows(data.users).map((u) => [str(u.id), str(u.name)]));
  const byOrder = (a: Row, b: Row) => Number(a.sort_order ?? 0) - Number(b.sort_order ?? 0);
  const postTags = new Map<string, string[]>();
  for (const link of rows(data.posts_tags).sort(byOrder)) {
    const name = tags.get(str(link.tag_id));
    // Tags named with # are Ghost's internal ones, never shown to readers.
    if (name && !name.startsWith('#')) postTags.set(str(link.post_id), [...(postTags.get(str(link.post_id)) ?? []), name]);
  }
  const postAuthors = new Map<string, string>();
  for (const link of rows(data.posts_authors).sort(byOrder)) {
    if (!postAuthors.has(str(link.post_id))) postAuthors.set(str(link.post_id), users.get(str(link.author_id)) ?? '');
  }
  const articles: ImportArticle[] = [];
  const skipped: SkippedItem[] = [];
  const infoPages: ImportInfoPage[] = [];
  for (const post of rows(data.posts)) {
    const id = str(post.id);
    const postTitle = str(post.title).trim();
    if (str(post.type) === 'page' || post.page === true || post.page === 1) {
      const slug = infoPageSlugOf(postTitle, str(post.slug));
      const pageNotes: string[] = [];
      if (slug && str(post.status) === 'published' && !infoPages.some((p) => p.slug === slug)) {
        try {
          const html = str(post.html).trim() ? str(post.html) : renderEditorDocument(post, pageNotes);
          infoPages.push({ slug, sourceId: id, title: postTitle, html: fromGhost(html) });
          continue;
        } catch {
          // An unreadable document: reported as any other page.
        }
      }
      skipped.push({
        sourceId: id,
        title: postTitle,
        reason: 'a page, not an article (only About and Contact are taken, as those pages)',
      });
      continue;
    }
    const notes: string[] = [];
    let html = str(post.html);
    if (!html.trim() && (post.mobiledoc || post.lexical)) {
      try {
        html = renderEditorDocument(post, notes);
      } catch (error) {
        skipped.push({
          sourceId: id,
          title: postTitle,
          reason: `its editor document could not be read: ${(error as Error).message}`,
        });
        continue;
      }
      notes.push(`rendered from its ${post.lexical ? 'lexical' : 'mobiledoc'} document (the export had no html)`);
    }
    const published = ghostDate(post.published_at);
    const createdAt = published ?? ghostDate(post.created_at);
    if (!createdAt) {
      skipped.push({ sourceId: id, title: postTitle, reason: 'no date' });
      continue;
    }
    const ghostStatus = str(post.status);
    let status: ImportArticle['status'] = ghostStatus === 'published' ? 'published' : 'draft';
    let publishAt: string | null = null;
    if (ghostStatus === 'scheduled') {
      if (published && Date.parse(published) > now) {
        status = 'scheduled';
        publishAt = published;
      } else {
        status = 'published';
        notes.push('scheduled for a date now past: published');
      }
    }
    // Only members (or paying members) read it on the old site: not made public here without the
    // owner looking, as WordPress's password-protected posts.
    const visibility = str(post.visibility) || 'public';
    if (visibility !== 'public' && status !== 'draft') {
      status = 'draft';
      publishAt = null;
      notes.push(
        `for ${visibility === 'members' ? 'members' : `${visibility} members`} only on the old site: imported as a draft`,
      );
    }
    const terms = postTags.get(id) ?? [];
    const image = str(post.feature_image);
    articles.push({
      sourceId: id,
      title: postTitle || '(no title)',
      author: postAuthors.get(id) || users.get(str(post.author_id)) || '',
      html: fromGhost(html),
      createdAt,
      status,
      publishAt,
      category: terms[0] ?? null,
      otherTerms: terms.slice(1),
      imageUrl: image ? fromGhost(image) : null,
      comments: [],
      oldPaths: [normaliseOldPath(`/${str(post.slug)}`)].filter((p): p is string => p !== null),
      notes,
    });
  }
  return { source: `ghost:${title}`, format: 'ghost', origin: PLACEHOLDER_ORIGIN, articles, skipped, infoPages };
}
