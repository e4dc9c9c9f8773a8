import { callJson } from './api.ts';
import type { RevisionDto, RevisionSummaryDto, SavedBlog } from '../shared/api-types.ts';

/** The revision calls of the edit screen (admin). */

export function listRevisions(blogId: number | string, signal?: AbortSignal): Promise<RevisionSummaryDto[]> {
  return callJson(`/api/blogs/${encodeURIComponent(blogId)}/revisions`, { signal });
}

export function getRevision(blogId: number | string, revisionId: number, signal?: AbortSignal): Promise<RevisionDto> {
  return callJson(`/api/blogs/${encodeURIComponent(blogId)}/revisions/${revisionId}`, { signal });
}

export function restoreRevision(blogId: number | string, revisionId: number): Promise<SavedBlog> {
  return callJson(`/api/blogs/${encodeURIComponent(blogId)}/revisions/${revisionId}/restore`, { method: 'POST' });
}
