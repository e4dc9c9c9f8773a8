/**
 * Small checks shared by every form schema. Pure functions with no Node or DOM dependencies, so
 * the admin forms in the browser and the endpoints on the server apply exactly the same rules.
 */

export type FieldErrors = Record<string, string>;

/**
 * The one result shape of every validator in this folder: the normalized values (usable even when
 * invalid, e.g. to keep the form filled) and the field messages, empty when the input is valid.
 * The forms show `errors` beside their fields; the server turns them into its 400 answer.
 */
export interface ValidationResult<T> {
  values: T;
  errors: FieldErrors;
}

export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) address: the only kind that may become a link, a video or a form address. */
export function isHttpUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

// Plain path segments only: no dot segments, no encoded characters, no doubled slashes.
const UPLOAD_PATH = /^\/uploads(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

/** A path to a file this site serves from its uploads folder, such as /uploads/pdfs/x.pdf. */
export function isUploadPath(value: string): boolean {
  if (value.length > MAX_URL_LENGTH || !UPLOAD_PATH.test(value)) return false;
  return !value.split('/').some((segment) => segment === '..' || segment === '.');
}

/** Text as the form sent it: strings trimmed; numbers kept; anything else counts as empty. */
export function readText(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

export function utf8Length(value: string): number {
  return new TextEncoder().encode(value).length;
}

/** Whole numbers, given as a number or as digits in a string; null for anything else. */
export function readInteger(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d{1,15}\s*$/.test(value)) {
    const n = Number(value.trim());
    return Number.isSafeInteger(n) ? n : null;
  }
  return null;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

/** One line for a banner or an API message: every field message, in form order. */
export function summarizeErrors(errors: FieldErrors): string {
  return Object.values(errors).join(' ');
}
