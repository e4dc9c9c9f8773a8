import type { FieldErrors } from './common.ts';

/**
 * The publishing fields of the blog body: `status` ("published" when left out, so the original API is
 * unchanged), "draft", or "scheduled" with `publish_at`, an ISO 8601 date and time in the future.
 * Shared by the admin form and the API.
 */

export type PublishStatus = 'published' | 'draft' | 'scheduled';
export const PUBLISH_STATUSES: readonly PublishStatus[] = ['published', 'draft', 'scheduled'];

export const PUBLISH_MESSAGES = {
  status: 'Status must be published, draft or scheduled.',
  publishAtRequired: 'A scheduled post needs a publish date and time (publish_at).',
  publishAtInvalid: 'Publish date must be an ISO 8601 date and time with a time zone, such as 2030-01-31T09:00:00Z.',
  publishAtPast: 'Publish date must be in the future.',
} as const;

export interface PublishValues {
  status: PublishStatus;
  /** Normalised to UTC (`toISOString`); null unless scheduled. */
  publish_at: string | null;
}

// A date, a time and a zone: a bare date or a time without a zone would be read in the server's zone.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** The instant an ISO 8601 date-time names, as `toISOString`; null when it is not one. */
export function parseIsoDateTime(value: unknown): string | null {
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value.trim())) return null;
  // No 30 February rolled over into March.
  const [y, m, d] = value.trim().slice(0, 10).split('-').map(Number) as [number, number, number];
  if (new Date(Date.UTC(y, m - 1, d)).getUTCDate() !== d || m < 1 || m > 12) return null;
  const time = Date.parse(value.trim());
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

export function readPublishing(
  input: { status?: unknown; publish_at?: unknown },
  errors: FieldErrors,
  now: number,
): PublishValues {
  const raw = input.status === undefined || input.status === null || input.status === '' ? 'published' : input.status;
  const status = PUBLISH_STATUSES.find((s) => s === raw);
  if (!status) {
    errors.status = PUBLISH_MESSAGES.status;
    return { status: 'draft', publish_at: null };
  }
  if (status !== 'scheduled') return { status, publish_at: null };
  const given = input.publish_at;
  if (given === undefined || given === null || given === '') {
    errors.publish_at = PUBLISH_MESSAGES.publishAtRequired;
    return { status, publish_at: null };
  }
  const publishAt = parseIsoDateTime(given);
  if (publishAt === null) errors.publish_at = PUBLISH_MESSAGES.publishAtInvalid;
  else if (Date.parse(publishAt) <= now) errors.publish_at = PUBLISH_MESSAGES.publishAtPast;
  return { status, publish_at: publishAt };
}
