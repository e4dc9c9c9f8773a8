import { $auth, clearAuth } from '../../stores/auth.ts';
import { ApiError } from '../http.ts';
import { getLibrary, removeFromLibrary, saveToLibrary, syncDeviceSaves } from '../library-api.ts';
import type { LibraryAnswer, SavedArticleDto } from '../../shared/api-types.ts';
import { readSavedList, writeSavedList, type SavedEntry } from './saved-list.ts';
import { dropAllReaderCopies, dropOffline, dropOfflineExcept, isKeptOffline, keepOffline } from './offline-copies.ts';

/**
 * Saving and removing an article: in the account when signed in, on this device otherwise (and
 * merged into the account after login), and kept offline either way.
 */

export type SaveTarget = Pick<SavedArticleDto, 'id' | 'title' | 'pdf_link' | 'image' | 'category_name'>;

const signedIn = () => $auth.get().status === 'user';

function keepCopy(id: number): void {
  // The save itself has succeeded; a copy that could not be made now is made on the next visit.
  keepOffline(id).catch((error: unknown) => console.error('Could not keep the article offline', error));
}

/** A session that ended elsewhere: the reader is signed out here too, and the save stays on the device. */
function endedSession(error: unknown): boolean {
  if (error instanceof ApiError && error.status === 401) {
    clearAuth();
    return true;
  }
  return false;
}

export async function saveArticle(target: SaveTarget): Promise<void> {
  const rest = readSavedList().filter((entry) => entry.id !== target.id);
  let entry: SavedEntry = { ...target, saved_at: new Date().toISOString(), updated_at: '', device: true };
  if (signedIn()) {
    try {
      entry = await saveToLibrary(target.id);
    } catch (error) {
      if (!endedSession(error)) throw error;
    }
  }
  writeSavedList([entry, ...rest]);
  keepCopy(target.id);
}

export async function removeArticle(id: number): Promise<void> {
  const entry = readSavedList().find((saved) => saved.id === id);
  // An entry that is not device-only came from the account, whatever the nav knows yet.
  if (entry ? !entry.device : signedIn()) {
    try {
      await removeFromLibrary(id);
    } catch (error) {
      if (!endedSession(error)) throw error;
    }
  }
  writeSavedList(readSavedList().filter((saved) => saved.id !== id));
  await dropOffline(id);
}

/**
 * The account's list becomes this device's, with the device's unsent saves kept in front; the
 * offline copies follow: made where missing, fetched again where the article changed on the site.
 */
export function adoptAccountList(saved: readonly SavedArticleDto[]): SavedEntry[] {
  const before = new Map(readSavedList().map((entry) => [entry.id, entry]));
  const inAccount = new Set(saved.map((entry) => entry.id));
  const unsent = [...before.values()].filter((entry) => entry.device && !inAccount.has(entry.id));
  const list = [...unsent, ...saved];
  writeSavedList(list);
  void dropOfflineExcept(new Set(list.map((entry) => entry.id)));
  for (const entry of list) {
    const changed = before.get(entry.id)?.updated_at !== entry.updated_at;
    void isKeptOffline(entry.id).then((kept) => {
      if (changed || !kept) keepCopy(entry.id);
    });
  }
  return list;
}

let sending: Promise<{ skipped: number[] } | null> | null = null;

/** After login: the articles saved on this device signed out go into the account (once at a time). */
export function sendDeviceSaves(): Promise<{ skipped: number[] } | null> {
  sending ??= sendUnsent().finally(() => (sending = null));
  return sending;
}

async function sendUnsent(): Promise<{ skipped: number[] } | null> {
  const unsent = readSavedList().filter((entry) => entry.device);
  if (!signedIn() || unsent.length === 0) return null;
  const answer = await syncDeviceSaves(unsent.map((entry) => entry.id));
  // Sent: the account's list now holds them (those no reader can open any more were skipped).
  writeSavedList(readSavedList().filter((entry) => !entry.device));
  adoptAccountList(answer.saved);
  return { skipped: answer.skipped };
}

/**
 * The library page's load: the account's library (401 when signed out), with this device's
 * unsent saves merged into it first; `skipped`: device saves no reader can open any more.
 */
export async function loadAccountLibrary(signal?: AbortSignal): Promise<LibraryAnswer & { skipped: number[] }> {
  const library = await getLibrary(signal);
  const unsent = readSavedList().filter((entry) => entry.device);
  if (unsent.length === 0) return { ...library, saved: adoptAccountList(library.saved), skipped: [] };
  const answer = await syncDeviceSaves(unsent.map((entry) => entry.id));
  writeSavedList(readSavedList().filter((entry) => !entry.device));
  return { ...library, saved: adoptAccountList(answer.saved), skipped: answer.skipped };
}

/** Logout: the saved list and every offline copy of what this reader saved or read leave the device. */
export async function forgetLibrary(): Promise<void> {
  writeSavedList([]);
  try {
    await dropAllReaderCopies();
  } catch (error) {
    console.error('Could not clear the offline copies', error);
  }
}
