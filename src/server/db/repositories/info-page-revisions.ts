import type { Selectable } from 'kysely';
import type { Db } from '../client.ts';
import type { InfoPageRevisionsTable, InfoPageSlug } from '../schema.ts';

/** About and Contact revisions (migration 0007): one row per save, with the text, who and when. */

export type InfoPageRevision = Selectable<InfoPageRevisionsTable>;

/** A revision in the edit screen's list: no text. */
export type InfoPageRevisionSummary = Pick<InfoPageRevision, 'id' | 'slug' | 'username' | 'action' | 'created_at'>;

export type NewInfoPageRevision = Omit<InfoPageRevision, 'id'>;

export async function insertInfoPageRevision(db: Db, revision: NewInfoPageRevision): Promise<number> {
  const { id } = await db.insertInto('info_page_revisions').values(revision).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Newest first. */
export function listInfoPageRevisions(db: Db, slug: InfoPageSlug): Promise<InfoPageRevisionSummary[]> {
  return db
    .selectFrom('info_page_revisions')
    .select(['id', 'slug', 'username', 'action', 'created_at'])
    .where('slug', '=', slug)
    .orderBy('id', 'desc')
    .execute();
}

export function findInfoPageRevision(db: Db, slug: InfoPageSlug, revisionId: number): Promise<InfoPageRevision | undefined> {
  return db
    .selectFrom('info_page_revisions')
    .selectAll()
    .where('slug', '=', slug)
    .where('id', '=', revisionId)
    .executeTakeFirst();
}

/**
 * Keeps the newest `keep` revisions of the page and deletes the rest; answers the deleted texts,
 * so the uploads only they used can go too.
 */
export function pruneInfoPageRevisions(
  db: Db,
  slug: InfoPageSlug,
  keep: number,
): Promise<Array<Pick<InfoPageRevision, 'content' | 'content_source'>>> {
  const kept = db.selectFrom('info_page_revisions').select('id').where('slug', '=', slug).orderBy('id', 'desc').limit(keep);
  return db
    .deleteFrom('info_page_revisions')
    .where('slug', '=', slug)
    .where('id', 'not in', kept)
    .returning(['content', 'content_source'])
    .execute();
}
