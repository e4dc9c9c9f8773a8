import { etagOf } from './page-etag.ts';
import { pageTagsOf } from './page-tags.ts';
import type { WholePage } from './store-file.ts';
import type { WorkerAnswer } from './render-worker.ts';

/** A rendered page to store: its body, its tags and the encodings made with it (others are made on demand). */
export interface PageInput {
  contentType: string;
  body: Buffer;
  tags: string[];
  gzip?: Buffer | null;
  br?: Buffer | null;
  /** Its Content-Security-Policy, narrowed to its inline scripts and styles by the render worker. */
  policy?: string | null;
}

/** A worker's bytes as a Buffer over the same memory (no copy). */
export const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A render worker's answer as the store takes it; null when it may not be stored. */
export function pageInputOf(answer: WorkerAnswer): PageInput | null {
  if (!answer.tags) return null;
  return {
    contentType: answer.headers['content-type'] ?? 'text/html; charset=utf-8',
    tags: answer.tags,
    body: asBuffer(answer.body),
    gzip: answer.gzip ? asBuffer(answer.gzip) : null,
    br: answer.br ? asBuffer(answer.br) : null,
    policy: answer.headers['content-security-policy'] ?? null,
  };
}

export interface PutEntry {
  key: string;
  input: PageInput;
  /** What beginRender() answered when its render began. */
  renderStartedAt: number;
}

/** The page as stored: its body, the encodings made with it, ETag and the versions of its tags now. */
export function storedPageOf(key: string, input: PageInput, buildId: string, versionOf: (tag: string) => number): WholePage {
  const tags = pageTagsOf(input.tags, versionOf);
  return {
    key,
    contentType: input.contentType,
    etag: etagOf(input.body),
    body: input.body,
    gzip: input.gzip ?? null,
    br: input.br ?? null,
    policy: input.policy ?? null,
    tags,
    renderedAt: Date.now(),
    buildId,
  };
}
