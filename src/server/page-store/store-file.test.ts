import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { prepareStoreFile, type WholePage } from './store-file.ts';
import { STORE_FILE_NAME } from './store-schema.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('store-file-test-');

const page = (key: string, versions: Record<string, number>): WholePage => ({
  key,
  contentType: 'text/html',
  etag: `"${Object.values(versions).join('-')}"`,
  body: Buffer.from(`<p>${key}</p>`),
  gzip: null,
  br: null,
  policy: null,
  tags: { names: Object.keys(versions), versions: Object.values(versions) },
  renderedAt: Date.now(),
  buildId: 'b1',
});

describe('the store file writing pages', () => {
  it("keeps a page's tag index rows when its new version carries the same tags, and rewrites them when they differ", () => {
    const db = new SQLite(path.join(tempDir(), STORE_FILE_NAME));
    const file = prepareStoreFile(db);
    // Every index row removed is counted: a refresh with the same tags removes none.
    db.exec(`create temp table removed (n integer);
      create temp trigger count_removed after delete on page_tags begin insert into removed values (1); end;`);
    const removed = () => (db.prepare('select count(*) as n from temp.removed').get() as { n: number }).n;
    const indexOf = (key: string) =>
      (db.prepare('select tag from page_tags where key = ? order by tag').all(key) as Array<{ tag: string }>).map((r) => r.tag);

    file.writePages([{ page: page('/blog/1', { 'blog:1': 1, nav: 1, settings: 1 }), size: 10 }]);
    expect(indexOf('/blog/1')).toEqual(['blog:1', 'nav', 'settings']);

    // Refreshed after a rename: the same tags at newer versions.
    const sizes = file.writePages([{ page: page('/blog/1', { 'blog:1': 1, nav: 2, settings: 1 }), size: 12 }]);
    expect(sizes).toEqual([10]);
    expect(removed()).toBe(0);
    expect(indexOf('/blog/1')).toEqual(['blog:1', 'nav', 'settings']);
    expect(file.keysWithTags(['nav'])).toEqual(['/blog/1']);

    // Its neighbours changed: one tag fewer, one new.
    file.writePages([{ page: page('/blog/1', { 'blog:1': 1, nav: 2, 'link:2': 1 }), size: 12 }]);
    expect(indexOf('/blog/1')).toEqual(['blog:1', 'link:2', 'nav']);
    expect(file.keysWithTags(['settings'])).toEqual([]);

    // A subset of the tags it had is a change too.
    file.writePages([{ page: page('/blog/1', { 'blog:1': 1 }), size: 12 }]);
    expect(indexOf('/blog/1')).toEqual(['blog:1']);
    db.close();
  });
});
