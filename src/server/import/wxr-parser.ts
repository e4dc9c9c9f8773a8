import fs from 'node:fs';
import { SaxesParser } from 'saxes';
import { IMPORT_LIMITS, IMPORT_MESSAGES, refused, tooLarge } from './limits.ts';

/**
 * Reads a WordPress export (WXR 1.1 and 1.2, Tools → Export) as a stream with saxes, a strict XML
 * parser that expands no entity but the five of XML itself. A DOCTYPE is refused outright (it is
 * where entity bombs and external entities live), as is nesting past IMPORT_LIMITS.depth and a
 * file past IMPORT_LIMITS.fileBytes; nothing is written before the whole file has been read.
 */

export interface WxrComment {
  id: string;
  author: string;
  dateGmt: string;
  date: string;
  content: string;
  /** `1`, `0` (pending), `spam`, `trash`. */
  approved: string;
  type: string;
}

export interface WxrCategory {
  domain: string;
  nicename: string;
  name: string;
}

export interface WxrItem {
  title: string;
  link: string;
  guid: string;
  creator: string;
  content: string;
  excerpt: string;
  postId: string;
  postDate: string;
  postDateGmt: string;
  postName: string;
  status: string;
  postType: string;
  postParent: string;
  attachmentUrl: string;
  password: string;
  categories: WxrCategory[];
  meta: Map<string, string>;
  comments: WxrComment[];
}

export interface WxrFile {
  title: string;
  link: string;
  baseSiteUrl: string;
  baseBlogUrl: string;
  version: string;
  /** Login → display name. */
  authors: Map<string, string>;
  items: WxrItem[];
}

const emptyItem = (): WxrItem => ({
  title: '',
  link: '',
  guid: '',
  creator: '',
  content: '',
  excerpt: '',
  postId: '',
  postDate: '',
  postDateGmt: '',
  postName: '',
  status: '',
  postType: '',
  postParent: '',
  attachmentUrl: '',
  password: '',
  categories: [],
  meta: new Map(),
  comments: [],
});

const ITEM_FIELDS: Record<string, keyof WxrItem> = {
  title: 'title',
  link: 'link',
  guid: 'guid',
  'dc:creator': 'creator',
  'content:encoded': 'content',
  'excerpt:encoded': 'excerpt',
  'wp:post_id': 'postId',
  'wp:post_date': 'postDate',
  'wp:post_date_gmt': 'postDateGmt',
  'wp:post_name': 'postName',
  'wp:status': 'status',
  'wp:post_type': 'postType',
  'wp:post_parent': 'postParent',
  'wp:attachment_url': 'attachmentUrl',
  'wp:post_password': 'password',
};

const COMMENT_FIELDS: Record<string, keyof WxrComment> = {
  'wp:comment_id': 'id',
  'wp:comment_author': 'author',
  'wp:comment_date': 'date',
  'wp:comment_date_gmt': 'dateGmt',
  'wp:comment_content': 'content',
  'wp:comment_approved': 'approved',
  'wp:comment_type': 'type',
};

const CHANNEL_FIELDS: Record<string, 'title' | 'link' | 'baseSiteUrl' | 'baseBlogUrl' | 'version'> = {
  title: 'title',
  link: 'link',
  'wp:base_site_url': 'baseSiteUrl',
  'wp:base_blog_url': 'baseBlogUrl',
  'wp:wxr_version': 'version',
};

/** A parser fed chunk by chunk; `finish()` answers the file once the last chunk was written. */
export function createWxrReader() {
  const parser = new SaxesParser({ xmlns: false });
  const file: WxrFile = { title: '', link: '', baseSiteUrl: '', baseBlogUrl: '', version: '', authors: new Map(), items: [] };
  const stack: string[] = [];
  let text = '';
  let item: WxrItem | null = null;
  let comment: WxrComment | null = null;
  let category: WxrCategory | null = null;
  let meta: { key: string; value: string } | null = null;
  let author: { login: string; name: string } | null = null;
  let sawChannel = false;

  parser.on('doctype', () => {
    throw refused(IMPORT_MESSAGES.doctype);
  });
  parser.on('opentag', (tag) => {
    stack.push(tag.name);
    if (stack.length > IMPORT_LIMITS.depth) throw refused(IMPORT_MESSAGES.tooDeep);
    text = '';
    const name = tag.name;
    if (name === 'channel' && stack.length === 2 && stack[0] === 'rss') sawChannel = true;
    else if (name === 'item' && stack[stack.length - 2] === 'channel') item = emptyItem();
    else if (item && name === 'wp:comment')
      comment = { id: '', author: '', dateGmt: '', date: '', content: '', approved: '', type: '' };
    else if (item && name === 'category' && !comment) {
      const attr = (key: string) => (typeof tag.attributes[key] === 'string' ? (tag.attributes[key] as string) : '');
      category = { domain: attr('domain'), nicename: attr('nicename'), name: '' };
    } else if (item && name === 'wp:postmeta') meta = { key: '', value: '' };
    else if (!item && name === 'wp:author') author = { login: '', name: '' };
  });
  parser.on('text', (chunk) => {
    text += chunk;
  });
  parser.on('cdata', (chunk) => {
    text += chunk;
  });
  parser.on('closetag', (tag) => {
    const name = tag.name;
    stack.pop();
    if (comment) {
      if (name === 'wp:comment') {
        item!.comments.push(comment);
        comment = null;
      } else if (COMMENT_FIELDS[name]) comment[COMMENT_FIELDS[name]] = text;
    } else if (meta) {
      if (name === 'wp:postmeta') {
        if (meta.key) item!.meta.set(meta.key, meta.value);
        meta = null;
      } else if (name === 'wp:meta_key') meta.key = text.trim();
      else if (name === 'wp:meta_value') meta.value = text;
    } else if (category && name === 'category') {
      category.name = text.trim();
      item!.categories.push(category);
      category = null;
    } else if (item) {
      if (name === 'item') {
        file.items.push(item);
        item = null;
      } else if (stack[stack.length - 1] === 'item' && ITEM_FIELDS[name]) {
        (item as unknown as Record<string, string>)[ITEM_FIELDS[name]] = text;
      }
    } else if (author) {
      if (name === 'wp:author') {
        if (author.login) file.authors.set(author.login, author.name || author.login);
        author = null;
      } else if (name === 'wp:author_login') author.login = text.trim();
      else if (name === 'wp:author_display_name') author.name = text.trim();
    } else if (stack[stack.length - 1] === 'channel' && CHANNEL_FIELDS[name]) {
      file[CHANNEL_FIELDS[name]] = text.trim();
    }
    text = '';
  });

  return {
    write(chunk: string): void {
      try {
        parser.write(chunk);
      } catch (error) {
        throw asImportError(error);
      }
    },
    finish(): WxrFile {
      try {
        parser.close();
      } catch (error) {
        throw asImportError(error);
      }
      if (!sawChannel) throw refused(IMPORT_MESSAGES.notWxr);
      return file;
    },
  };
}

function asImportError(error: unknown): Error {
  if (error instanceof Error && 'code' in error) return error;
  return refused(IMPORT_MESSAGES.badXml(error instanceof Error ? error.message : String(error)));
}

/** Parses a WXR held in memory (tests, the admin upload once received). */
export function parseWxr(xml: string): WxrFile {
  if (Buffer.byteLength(xml) > IMPORT_LIMITS.fileBytes) throw tooLarge();
  const reader = createWxrReader();
  reader.write(xml);
  return reader.finish();
}

/** Streams a WXR file from disk, refusing it by its size before reading a byte. */
export async function readWxrFile(path: string, onProgress?: (bytes: number, total: number) => void): Promise<WxrFile> {
  const { size } = await fs.promises.stat(path);
  if (size > IMPORT_LIMITS.fileBytes) throw tooLarge();
  const reader = createWxrReader();
  let read = 0;
  for await (const chunk of fs.createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    read += Buffer.byteLength(chunk as string);
    if (read > IMPORT_LIMITS.fileBytes) throw tooLarge();
    reader.write(chunk as string);
    onProgress?.(read, size);
  }
  return reader.finish();
}
