import { $auth, clearAuth } from '../../stores/auth.ts';
import { ApiError } from '../http.ts';
import { getLibrary, removeFromLibrary, saveToLibrary, syncDeviceSaves } from '../library-api.ts';
import type { LibraryAnswer, SavedArticleDto } from '../../shared/api-types.ts';
import { readSavedList, writeSavedList, type SavedEntry } from './saved-list.ts';
import {
  dropAllReaderCopies,
  dropOffline,
  dropOfflineExcept,
  isKeptOffline,
  keepOffline,
  NoRoomOffline,
} from './offline-copies.ts';
import { LIBRARY_LIMITS, LIBRARY_MESSAGES } from '../../shared/validation/library.ts';

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

/** A save refused on this device (its list is as full as an account's library may be). */
export class LibraryFull extends Error {
  constructor() {
    super(LIBRARY_MESSAGES.full);
    this.name = 'LibraryFull';
  }
}

/**
 * Saves the article and keeps it offline. Answers where the offline copy stands: `kept`, `no-room`
 * (the device's storage for the site is full; the save itself stands) or `later` (it could not be
 * fetched now; the next visit makes it).
 */
export async function saveArticle(target: SaveTarget): Promise<'kept' | 'no-room' | 'later'> {
  const rest = readSavedList().filter((entry) => entry.id !== target.id);
  let entry: SavedEntry = { ...target, saved_at: new Date().toISOString(), updated_at: '', device: true };
  let onDevice = true;
  if (signedIn()) {
    try {
      entry = await saveToLibrary(target.id);
      onDevice = false;
    } catch (error) {
      if (!endedSession(error)) throw error;
    }
  }
  // Signed out, the device holds no more than an account may: the list joins one at login.
  if (onDevice && rest.length >= LIBRARY_LIMITS.saved) throw new LibraryFull();
  writeSavedList([entry, ...rest]);
  try {
    await keepOffline(target.id);
    return 'kept';
  } catch (error) {
    if (error instanceof NoRoomOffline) return 'no-room';
    console.error('Could not keep the article offline', error);
    return 'later';
  }
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

/**
 * Device saves the account could not take: with them its library would pass the limit, and the
 * server then takes none (409 library_full). They stay on the device, listed with the account's.
 */
export interface NotSynced {
  entries: SavedEntry[];
  /** How many articles the account's library holds already, and at most. */
  inAccount: number;
  limit: number;
}

export type SyncOutcome = { skipped: number[]; notSynced: NotSynced | null };

const isLibraryFull = (error: unknown) => error instanceof ApiError && error.code === 'library_full';

/**
 * Sends this device's unsent saves into the account whose list is `accountList`; answers the
 * list the device shows now (the account's, the unsent first) and what did not go in.
 */
async function sync(accountList: readonly SavedArticleDto[]): Promise<SyncOutcome & { saved: SavedEntry[] }> {
  const unsent = readSavedList().filter((entry) => entry.device);
  if (unsent.length === 0) return { saved: adoptAccountList(accountList), skipped: [], notSynced: null };
  try {
    const answer = await syncDeviceSaves(unsent.map((entry) => entry.id));
    // Sent: the account's list now holds them (those no reader can open any more were skipped).
    writeSavedList(readSavedList().filter((entry) => !entry.device));
    return { saved: adoptAccountList(answer.saved), skipped: answer.skipped, notSynced: null };
  } catch (error) {
    if (!isLibraryFull(error)) throw error;
    const inAccount = new Set(accountList.map((entry) => entry.id));
    const entries = unsent.filter((entry) => !inAccount.has(entry.id));
    return {
      saved: adoptAccountList(accountList),
      skipped: [],
      notSynced: { entries, inAccount: accountList.length, limit: LIBRARY_LIMITS.saved },
    };
  }
}

let sending: Promise<SyncOutcome | null> | null = null;

/**
 * After login: the articles saved on this device signed out go into the account (once at a
 * time). A library they would overfill is no error here: the library page says what stayed out.
 */
export function sendDeviceSaves(): Promise<SyncOutcome | null> {
  sending ??= sendUnsent().finally(() => (sending = null));
  return sending;
}

async function sendUnsent(): Promise<SyncOutcome | null> {
  if (!signedIn() || !readSavedList().some((entry) => entry.device)) return null;
  const { skipped, notSynced } = await sync((await getLibrary()).saved);
  return { skipped, notSynced };
}

/**
 * The library page's load: the account's library (401 when signed out), with this device's
 * unsent saves merged into it first; `skipped`: device saves no reader can open any more;
 * `notSynced`: device saves the account's library had no room for.
 */
export async function loadAccountLibrary(signal?: AbortSignal): Promise<LibraryAnswer & SyncOutcome> {
  const library = await getLibrary(signal);
  return { ...library, ...(await sync(library.saved)) };
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
