import type { AdminBlogDto, BlogStatus } from '../../shared/api-types.ts';
import { adminPreviewHref, articleHref } from '../../shared/site-map/paths.ts';

/** How the admin screens name an article's publishing state and where it can be seen. */

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** "Draft", "Published", "Scheduled for 3 Feb 2030, 09:00" (in the admin's own time zone). */
export function statusText(blog: Pick<AdminBlogDto, 'status' | 'publish_at'>): string {
  if (blog.status === 'draft') return 'Draft';
  if (blog.status === 'scheduled' && blog.publish_at) return `Scheduled for ${dateTime.format(new Date(blog.publish_at))}`;
  return 'Published';
}

/** A published article is viewed on the site; any other is previewed. */
export function siteLink(blog: Pick<AdminBlogDto, 'id' | 'status'>): { href: string; label: 'View on site' | 'Preview' } {
  return blog.status === 'published'
    ? { href: articleHref(blog.id), label: 'View on site' }
    : { href: adminPreviewHref(blog.id), label: 'Preview' };
}

export const STATUS_FILTERS: Array<{ value: BlogStatus | ''; label: string }> = [
  { value: '', label: 'All' },
  { value: 'published', label: 'Published' },
  { value: 'draft', label: 'Drafts' },
  { value: 'scheduled', label: 'Scheduled' },
];

/** `<input type="datetime-local">` speaks local time without a zone; the API wants ISO 8601 with one. */
export function localInputToIso(value: string): string {
  if (!value) return '';
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
