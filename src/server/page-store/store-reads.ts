import type SQLite from 'better-sqlite3';
import { PAGE_ENCODINGS, type PageCopy, type PageEncoding } from './compress-page.ts';
import { damageFound } from './store-damage.ts';
import { bodyMatchesEtag, checksumOf } from './page-etag.ts';
import { sharedPageString } from './shared-strings.ts';
import { readPageTagsText, type PageTags } from './page-tags.ts';

/**
 * A stored page. A copy read from the file for a reader holds only the copy that reader takes
 * (`body`, `gzip` or `br`): a page read in brotli then leaves its much larger body in the file, so
 * the same memory holds several times as many pages. Null: not made yet, or not held by this copy
 * (`PageStore.copyOf` takes it from the file).
 */
export interface StoredPage {
  key: string;
  contentType: string;
  etag: string;
  /** The page as rendered. */
  body: Buffer | null;
  /** Made by a render worker once a reader takes it (or with a render, for a page readers took it of). */
  gzip: Buffer | null;
  br: Buffer | null;
  /**
   * The Content-Security-Policy it is answered with, narrowed to its own inline scripts and styles
   * when it was rendered (null: not an HTML page, or stored without one).
   */
  policy?: string | null;
  tags: PageTags;
  renderedAt: number;
  buildId: string;
}

/** A stored page with every copy the file has. */
export type WholePage = StoredPage & { body: Buffer };

/** The field of a stored page that holds a copy. */
export const fieldOf = (copy: PageCopy): 'body' | PageEncoding => (copy === 'identity' ? 'body' : copy);

interface MetaRow {
  key: string;
  content_type: string;
  etag: string;
  tags: string;
  rendered_at: number;
  build_id: string;
  policy: string | null;
}

// The policy is stored once for all the pages it answers (store-schema.ts).
const META = 'key, content_type, etag, tags, rendered_at, build_id, (select text from policies where id = policy_id) as policy';

/** A row's tags as written, or the damage found when they no longer read as written. */
export function parseTags(key: string, text: string): PageTags {
  const tags = readPageTagsText(text);
  if (!tags) throw damageFound(`the stored tags of ${key} are unreadable`);
  return tags;
}

/** Throws the damage found when a copy read back no longer has the checksum written with it (a body: its ETag's). */
function checkCopy(key: string, copy: PageCopy, bytes: Buffer | null, sum: string | null, etag: string): void {
  if (!bytes) return;
  if (copy === 'identity') {
    if (!bodyMatchesEtag(bytes, etag)) throw damageFound(`the stored body of ${key} does not match its ETag`);
  } else if (checksumOf(bytes) !== sum) throw damageFound(`the stored ${copy} copy of ${key} does not match its checksum`);
}

const pageOf = (row: MetaRow): StoredPage => ({
  key: row.key,
  contentType: sharedPageString(row.content_type),
  etag: row.etag,
  tags: parseTags(row.key, row.tags),
  renderedAt: row.rendered_at,
  buildId: sharedPageString(row.build_id),
  body: null,
  gzip: null,
  br: null,
  policy: row.policy === null ? null : sharedPageString(row.policy),
});

/** The encodings a stored version of a page has (`renderedAt` names the version). */
export interface StoredEncodings {
  encodings: PageEncoding[];
  renderedAt: number;
}

/** The statements reading pages from the store's file; every copy read is checked. */
export function prepareReads(db: SQLite.Database) {
  const whole = db.prepare(`select ${META}, body, gzip, br, gzip_sum, br_sum from pages where key = ?`);
  const tagsOf = db.prepare('select tags, build_id from pages where key = ?');
  const encodingsOf = db.prepare(
    'select gzip is not null as gzip, br is not null as br, rendered_at as renderedAt from pages where key = ?',
  );
  const copyOf = {
    identity: db.prepare(
      'select body as bytes, null as sum from pages where key = @key and etag = @etag and build_id = @buildId',
    ),
    gzip: db.prepare(
      'select gzip as bytes, gzip_sum as sum from pages where key = @key and etag = @etag and build_id = @buildId',
    ),
    br: db.prepare('select br as bytes, br_sum as sum from pages where key = @key and etag = @etag and build_id = @buildId'),
  };
  // One statement per order of preference: the first copy the row has, the others left unread.
  const firstOf = new Map<string, SQLite.Statement>();
  const firstStatement = (order: readonly PageCopy[]): SQLite.Statement => {
    const name = order.join(',');
    let statement = firstOf.get(name);
    if (!statement) {
      const encodings = order.filter((copy): copy is PageEncoding => copy !== 'identity');
      const which = encodings.map((e) => `when ${e} is not null then '${e}'`).join(' ');
      const bytes = encodings.map((e) => `when ${e} is not null then ${e}`).join(' ');
      const sum = encodings.map((e) => `when ${e} is not null then ${e}_sum`).join(' ');
      const pick = (cases: string, otherwise: string) => (cases ? `case ${cases} else ${otherwise} end` : otherwise);
      // Past the reader's encodings, the body; a row without one (a page kept in brotli only) gives
      // its brotli copy, from which the body is made.
      statement = db.prepare(
        `select ${META}, ${pick(which, "iif(body is not null, 'identity', 'br')")} as copy,
           ${pick(bytes, 'coalesce(body, br)')} as bytes, ${pick(sum, 'iif(body is not null, null, br_sum)')} as sum
         from pages where key = ?`,
      );
      firstOf.set(name, statement);
    }
    return statement;
  };

  return {
    /** The page with every copy the file has, each checked (a page kept in brotli only has no body). */
    readPage(key: string): StoredPage | undefined {
      const row = whole.get(key) as
        | (MetaRow & {
            body: Buffer | null;
            gzip: Buffer | null;
            br: Buffer | null;
            gzip_sum: string | null;
            br_sum: string | null;
          })
        | undefined;
      if (!row) return undefined;
      // Damage inside a body is invisible to SQLite: its ETag carries the checksum of what was stored.
      checkCopy(key, 'identity', row.body, null, row.etag);
      checkCopy(key, 'gzip', row.gzip, row.gzip_sum, row.etag);
      checkCopy(key, 'br', row.br, row.br_sum, row.etag);
      return { ...pageOf(row), body: row.body, gzip: row.gzip, br: row.br };
    },
    /**
     * The page holding one copy only: the first of `order` (best first, ending with identity) the
     * row has, else its brotli copy; the others are not read.
     */
    readPageIn(key: string, order: readonly PageCopy[]): StoredPage | undefined {
      const row = firstStatement(order).get(key) as (MetaRow & { copy: PageCopy; bytes: Buffer; sum: string | null }) | undefined;
      if (!row) return undefined;
      checkCopy(key, row.copy, row.bytes, row.sum, row.etag);
      const page = pageOf(row);
      page[fieldOf(row.copy)] = row.bytes;
      return page;
    },
    /** A page's tag versions and build, without its bodies. */
    readPageTags(key: string): { tags: PageTags; buildId: string } | undefined {
      const row = tagsOf.get(key) as { tags: string; build_id: string } | undefined;
      return row && { tags: parseTags(key, row.tags), buildId: row.build_id };
    },
    /** A copy of that version of the page, when the file has it (another process made it). */
    readCopy(page: Pick<StoredPage, 'key' | 'etag' | 'buildId'>, copy: PageCopy): Buffer | null {
      const row = copyOf[copy].get({ key: page.key, etag: page.etag, buildId: page.buildId }) as
        | { bytes: Buffer | null; sum: string | null }
        | undefined;
      if (!row?.bytes) return null;
      checkCopy(page.key, copy, row.bytes, row.sum, page.etag);
      return row.bytes;
    },
    /** Which encodings the stored page has, without reading them, and which version it is (its `renderedAt`). */
    readEncodings(key: string): StoredEncodings | undefined {
      const row = encodingsOf.get(key) as { gzip: number; br: number; renderedAt: number } | undefined;
      if (!row) return undefined;
      return { encodings: PAGE_ENCODINGS.filter((encoding) => row[encoding]), renderedAt: row.renderedAt };
    },
  };
}
