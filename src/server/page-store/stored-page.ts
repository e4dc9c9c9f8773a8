import crypto from 'node:crypto';
import { compressPage } from './compress-page.ts';
import type { StoredPage } from './store-file.ts';

/** A rendered page to store: its body, its tags and, when already made, its compressed copies. */
export interface PageInput {
  contentType: string;
  body: Buffer;
  tags: string[];
  gzip?: Buffer;
  br?: Buffer;
}

export interface PutEntry {
  key: string;
  input: PageInput;
  /** What beginRender() answered when its render began. */
  renderStartedAt: number;
}

/** The page as stored: its encodings (made here when not given), ETag and the versions of its tags now. */
export function storedPageOf(key: string, input: PageInput, buildId: string, versionOf: (tag: string) => number): StoredPage {
  const tags: Record<string, number> = {};
  for (const tag of input.tags) tags[tag] = versionOf(tag);
  const { gzip, br } = input.gzip && input.br ? { gzip: input.gzip, br: input.br } : compressPage(input.body);
  return {
    key,
    contentType: input.contentType,
    etag: `"${crypto.createHash('sha1').update(input.body).digest('base64url').slice(0, 22)}"`,
    body: input.body,
    gzip,
    br,
    tags,
    renderedAt: Date.now(),
    buildId,
  };
}
