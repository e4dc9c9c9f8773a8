/**
 * The pending-comment count in the admin side menu: the layout renders it, and the moderation
 * screen announces every new count with this window event so the menu stays current.
 */
export const PENDING_COMMENTS_EVENT = 'admin:pending-comments';

export function publishPendingComments(count: number): void {
  window.dispatchEvent(new CustomEvent<number>(PENDING_COMMENTS_EVENT, { detail: count }));
}

/** What follows "Comments" on screen: " (3)" while comments wait, else nothing. */
export function pendingBadge(pending: number): string {
  return pending > 0 ? ` (${pending})` : '';
}

/** The same for screen readers, as the link's description (its name stays "Comments"). */
export function pendingDescription(pending: number): string {
  return pending > 0 ? `${pending} waiting for approval` : '';
}
