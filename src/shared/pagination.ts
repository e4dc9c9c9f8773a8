export interface PageInfo {
  page: number;
  pageSize: number;
  totalItems: number;
  totalPages: number;
  offset: number;
}

/** Clamps nothing: a page beyond the last is reported as such so the route can answer 404. */
export function paginate(page: number, pageSize: number, totalItems: number): PageInfo {
  const totalPages = Math.max(1, Math.ceil(totalItems / pageSize));
  return { page, pageSize, totalItems, totalPages, offset: (page - 1) * pageSize };
}

/** Parses a ?page= value: absent means 1; anything but a positive integer is invalid (null). */
export function parsePageParam(raw: string | null | undefined): number | null {
  if (raw === null || raw === undefined || raw === '') return 1;
  if (!/^[1-9]\d{0,5}$/.test(raw)) return null;
  return Number(raw);
}

/** Page numbers to show as buttons: all of them when few, else a window with the ends. */
export function pageButtons(current: number, total: number, width = 7): Array<number | 'gap'> {
  if (total <= width) return Array.from({ length: total }, (_, i) => i + 1);
  const pages = new Set<number>([1, total]);
  const half = Math.floor((width - 2) / 2);
  let start = Math.max(2, current - half);
  const end = Math.min(total - 1, start + width - 3);
  start = Math.max(2, end - (width - 3));
  for (let p = start; p <= end; p++) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: Array<number | 'gap'> = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1]! > 1) out.push('gap');
    out.push(p);
  });
  return out;
}
