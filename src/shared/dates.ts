const formatter = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * The formatter's month names ("Sept" in en-GB), taken from it once, when it writes a date as
 * "day month year" (else null: every date goes through it). A list page shows some thirty dates,
 * and the formatter's own call was 1.4% of a render's CPU.
 */
const MONTHS: string[] | null = (() => {
  const names = Array.from({ length: 12 }, (_, month) => {
    const parts = formatter.formatToParts(Date.UTC(2000, month, 20));
    const shape = parts.map((part) => (part.type === 'literal' ? part.value : part.type)).join('');
    return shape === 'day month year' ? parts[2]!.value : null;
  });
  return names.every((name) => name !== null) ? (names as string[]) : null;
})();

/** "22 Nov 2026" for an ISO date; null for a missing or unreadable one. */
export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const year = date.getUTCFullYear();
  // Years of four digits as the formatter writes them; any other through it.
  if (!MONTHS || year < 1000 || year > 9999) return formatter.format(date);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${year}`;
}

// Made once: an Intl formatter costs far more to build than to use, and pages are rendered by the thousand.
const counter = new Intl.NumberFormat('en-GB');

/** "12,345": a count as readers see it. */
export function formatCount(value: number): string {
  return counter.format(value);
}
