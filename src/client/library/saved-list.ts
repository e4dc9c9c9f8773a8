import type { SavedArticleDto } from '../../shared/api-types.ts';

/**
 * This device's copy of the reader's saved list, in localStorage: it paints the Save buttons at
 * once, and it is the library page's list when the network is gone. An entry saved while signed
 * out is marked `device` until it has been merged into an account after login.
 */

export interface SavedEntry extends SavedArticleDto {
  /** Saved on this device signed out and not sent to an account yet. */
  device?: boolean;
}

const KEY = 'library.saved';
const listeners = new Set<(list: SavedEntry[]) => void>();

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function isEntry(value: unknown): value is SavedEntry {
  const entry = value as Partial<SavedEntry> | null;
  return typeof entry?.id === 'number' && typeof entry.title === 'string';
}

export function readSavedList(): SavedEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
}

export function writeSavedList(list: readonly SavedEntry[]): void {
  const store = storage();
  if (list.length === 0) store?.removeItem(KEY);
  else store?.setItem(KEY, JSON.stringify(list));
  for (const listener of listeners) listener([...list]);
}

export const isSavedHere = (id: number) => readSavedList().some((entry) => entry.id === id);

/** Called with the new list after every change made in this tab. */
export function onSavedListChange(listener: (list: SavedEntry[]) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
