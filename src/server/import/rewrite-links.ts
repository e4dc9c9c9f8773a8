import type { ImportFiles } from './import-files.ts';
import { DATED_FILE, UPLOADS_FOLDER } from './upload-source.ts';
import { normaliseOldPath } from '../../shared/old-paths.ts';
import { articleHref } from '../../shared/site-map/paths.ts';

/**
 * The old site's addresses inside an article, pointed here: images from its uploads become the
 * stored copies (`/uploads/images/...`), links to its posts become `/blog/ID` when that article
 * is already here, else the old path on this site, which the redirect table answers with a 301
 * once the article arrives. `srcset`, which only ever lists the old site's sizes, is dropped.
 */

const ATTRIBUTE = /(\s(?:src|href)\s*=\s*)(["'])([^"']*)\2/gi;
const SRCSET = /\ssrcset\s*=\s*(["'])[^"']*\1/gi;

export interface RewriteContext {
  /** The old site's address, no trailing slash; '' when unknown. */
  origin: string;
  files: ImportFiles;
  /** The article an old path now is, if already imported. */
  articleFor(path: string): Promise<number | undefined>;
}

function isOldUpload(url: URL, originHost: string): boolean {
  if (url.pathname.includes('/wp-content/uploads/') || /(^|\.)files\.wordpress\.com$/.test(url.host)) return true;
  return url.host === originHost && (url.pathname.includes('/content/images/') || /\.(jpe?g|png|gif|webp)$/i.test(url.pathname));
}

/**
 * Whether an address (absolute, or relative to the old site's `origin`) is one of the old site's
 * uploaded files, which the uploads folder given beside the export can hold; any other is on
 * another site (a photo library, a CDN the export does not cover).
 */
export function isOldUploadAddress(address: string, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(address, origin || undefined);
  } catch {
    return false;
  }
  if (!/^https?:$/.test(url.protocol)) return false;
  // Where an uploads folder keeps it, whatever the host (a media domain, an export made under another address).
  const inFolder = UPLOADS_FOLDER.test(url.pathname) || DATED_FILE.test(url.pathname);
  return inFolder || isOldUpload(url, hostOf(origin));
}

function hostOf(origin: string): string {
  try {
    return origin ? new URL(origin).host : '';
  } catch {
    return '';
  }
}

export async function rewriteLinks(html: string, context: RewriteContext, notes: string[]): Promise<string> {
  const originHost = hostOf(context.origin);
  const replacements = new Map<string, string>();
  const missing = new Set<string>();
  for (const match of html.matchAll(ATTRIBUTE)) {
    const value = match[3]!.replace(/&amp;/g, '&');
    if (replacements.has(value)) continue;
    let url: URL;
    try {
      url = new URL(value, context.origin || undefined);
    } catch {
      continue;
    }
    if (!/^https?:$/.test(url.protocol)) continue;
    if (isOldUpload(url, originHost)) {
      const result = await context.files.resolve(url.href);
      if ('url' in result) replacements.set(value, result.url);
      else missing.add(result.missing);
    } else if (originHost && url.host === originHost) {
      const path = normaliseOldPath(url.pathname.slice(new URL(context.origin).pathname.replace(/\/+$/, '').length) + url.search);
      if (!path) continue;
      const id = await context.articleFor(path);
      replacements.set(value, id ? `${articleHref(id)}${url.hash}` : `${path}${url.hash}`);
    }
  }
  for (const problem of missing) notes.push(`image ${problem}`);
  if (replacements.size === 0) return html.replace(SRCSET, '');
  return html.replace(SRCSET, '').replace(ATTRIBUTE, (whole, start: string, quote: string, raw: string) => {
    const replacement = replacements.get(raw.replace(/&amp;/g, '&'));
    return replacement === undefined ? whole : `${start}${quote}${replacement}${quote}`;
  });
}
