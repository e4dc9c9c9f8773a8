const formatter = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "22 Nov 2026" for an ISO date; null for a missing or unreadable one. */
export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : formatter.format(date);
}

// Made once: an Intl formatter costs far more to build than to use, and pages are rendered by the thousand.
const counter = new Intl.NumberFormat('en-GB');

/** "12,345": a count as readers see it. */
export function formatCount(value: number): string {
  return counter.format(value);
}
