import { callJson } from './http.ts';
import type { InfoPageSlug } from '../shared/validation/info-page.ts';

/**
 * The revision calls of the edit screens (admin). Articles and About/Contact answer the same
 * three calls under their own address: the list, one revision, and its restore.
 */

export const blogRevisionsUrl = (blogId: number | string) => `/api/blogs/${encodeURIComponent(blogId)}/revisions`;

export const infoPageRevisionsUrl = (slug: InfoPageSlug) => `/api/admin/pages/${slug}/revisions`;

export function listRevisions<Summary>(revisionsUrl: string, signal?: AbortSignal): Promise<Summary[]> {
  return callJson(revisionsUrl, { signal });
}

export function getRevision<Revision>(revisionsUrl: string, revisionId: number, signal?: AbortSignal): Promise<Revision> {
  return callJson(`${revisionsUrl}/${revisionId}`, { signal });
}

export function restoreRevision<Saved>(revisionsUrl: string, revisionId: number): Promise<Saved> {
  return callJson(`${revisionsUrl}/${revisionId}/restore`, { method: 'POST' });
}
