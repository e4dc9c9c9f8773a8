import { callJson } from './http.ts';
import type { LibraryAnswer, LibrarySyncAnswer, SavedArticleDto } from '../shared/api-types.ts';

/** The reader's library calls (signed in; each answers 401 otherwise). */

export function getLibrary(signal?: AbortSignal): Promise<LibraryAnswer> {
  return callJson('/api/library', { signal });
}

export function saveToLibrary(blogId: number): Promise<SavedArticleDto> {
  return callJson(`/api/library/saved/${blogId}`, { method: 'PUT' });
}

export async function removeFromLibrary(blogId: number): Promise<void> {
  await callJson(`/api/library/saved/${blogId}`, { method: 'DELETE' });
}

/** Merges the articles this device saved before login into the account. */
export function syncDeviceSaves(ids: readonly number[]): Promise<LibrarySyncAnswer> {
  return callJson('/api/library/saved', { method: 'POST', json: { ids } });
}

/** `keepalive`: sent as the page goes away (the reader closes or leaves the article). */
export async function sendReadingProgress(blogId: number, position: number, keepalive = false): Promise<void> {
  await callJson(`/api/library/progress/${blogId}`, { method: 'PUT', json: { position }, keepalive });
}
