import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { InfoPageRevisionAction, InfoPageSlug } from '../db/schema.ts';
import {
  findInfoPageRevision,
  insertInfoPageRevision,
  listInfoPageRevisions,
  pruneInfoPageRevisions,
  type InfoPageRevision,
  type InfoPageRevisionSummary,
} from '../db/repositories/info-page-revisions.ts';
import { notFound } from '../errors.ts';

/**
 * About and Contact revisions, kept as articles keep theirs: every save records the text as saved,
 * who saved it and when, and prunes the page's revisions to REVISIONS_KEEP (the same setting).
 * The built-in text is recorded too when the first save replaces it, so it can be brought back.
 */

export interface InfoPageText {
  slug: InfoPageSlug;
  content: string;
  content_source: string | null;
}

/** Records the text; answers the texts of revisions pruned away (their uploads may go). */
export async function recordInfoPageRevision(
  db: Db,
  page: InfoPageText,
  /** The admin, or (id null) the command line's import. */
  saver: { id: number | null; username: string },
  action: InfoPageRevisionAction,
  keep: number,
): Promise<Array<Pick<InfoPageRevision, 'content' | 'content_source'>>> {
  await insertInfoPageRevision(db, {
    ...page,
    user_id: saver.id,
    username: saver.username,
    action,
    created_at: new Date().toISOString(),
  });
  return pruneInfoPageRevisions(db, page.slug, keep);
}

/** The edit screen's list, newest first (empty while the page shows its built-in text). */
export function listRevisionsOfInfoPage(app: AppContext, slug: InfoPageSlug): Promise<InfoPageRevisionSummary[]> {
  return listInfoPageRevisions(app.db, slug);
}

export async function getInfoPageRevision(app: AppContext, slug: InfoPageSlug, revisionId: number): Promise<InfoPageRevision> {
  const revision = await findInfoPageRevision(app.db, slug, revisionId);
  if (!revision) throw notFound('That revision');
  return revision;
}
