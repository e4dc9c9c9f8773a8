import { readInteger, type FieldErrors, type ValidationResult } from './common.ts';

/**
 * A reader's library: how many articles it holds, where a reader stopped in one, and the
 * articles a device saved before its reader signed in (sent once, after login).
 */

export const LIBRARY_LIMITS = {
  /** Saved articles per account: a phone keeps each of them, images and PDF, offline. */
  saved: 100,
  /** Recently read articles kept per account. */
  recent: 20,
  /** The reader's own comments the library lists. */
  comments: 50,
} as const;

export const LIBRARY_MESSAGES = {
  full: `Your library is full (${LIBRARY_LIMITS.saved} articles). Remove an article before saving another.`,
  noRoom:
    'Saved to your library, but this device has no room left to keep it for offline reading. Remove an article you no longer need, or free some space on the device.',
  tooManyIds: `A library holds at most ${LIBRARY_LIMITS.saved} articles; this list has more.`,
  idsInvalid: 'ids must be a list of article ids (positive whole numbers).',
  positionInvalid: 'position must be a number from 0 to 1 (how far into the article the reader is).',
} as const;

export interface ProgressValues {
  position: number;
}

export function validateProgressInput(input: { position?: unknown }): ValidationResult<ProgressValues> {
  const errors: FieldErrors = {};
  const position = typeof input.position === 'number' && Number.isFinite(input.position) ? input.position : NaN;
  if (!(position >= 0 && position <= 1)) errors.position = LIBRARY_MESSAGES.positionInvalid;
  // Stored to a thousandth: finer is noise, and a short number keeps the row small.
  return { values: { position: Number.isNaN(position) ? 0 : Math.round(position * 1000) / 1000 }, errors };
}

export interface SyncValues {
  ids: number[];
}

/** The device's saves: a list of distinct article ids, no longer than a library. */
export function validateSyncInput(input: { ids?: unknown }): ValidationResult<SyncValues> {
  const errors: FieldErrors = {};
  const ids: number[] = [];
  if (!Array.isArray(input.ids)) errors.ids = LIBRARY_MESSAGES.idsInvalid;
  else if (input.ids.length > LIBRARY_LIMITS.saved) errors.ids = LIBRARY_MESSAGES.tooManyIds;
  else {
    for (const raw of input.ids) {
      const id = typeof raw === 'number' ? readInteger(raw) : null;
      if (id === null || id < 1) {
        errors.ids = LIBRARY_MESSAGES.idsInvalid;
        break;
      }
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return { values: { ids }, errors };
}
