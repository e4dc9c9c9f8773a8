import { atom } from 'nanostores';

/**
 * The admin panel's message banner (docs/product.md#admin-area: success titled "Success!", error titled
 * "Error!", closable). One store for the page: the layout's banner island shows it, every admin
 * island sets it. A message can also be carried to the next page (after a create the form goes
 * to the blog table, which shows how long the change took to go live).
 */
export interface AdminMessage {
  type: 'success' | 'error';
  text: string;
  /** How long the change took to go live on the public site (the API's live_ms). */
  liveMs?: number | null;
}

export const $adminMessage = atom<AdminMessage | null>(null);

const FLASH_KEY = 'admin-flash';

export function showSuccess(text: string, liveMs?: number | null): void {
  $adminMessage.set({ type: 'success', text, liveMs: liveMs ?? null });
}

export function showError(text: string): void {
  $adminMessage.set({ type: 'error', text });
}

export function clearMessage(): void {
  $adminMessage.set(null);
}

/** Keeps a message for the next admin page this tab opens. */
export function flashMessage(message: AdminMessage): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify(message));
  } catch {
    // Private mode or storage full: the next page simply shows no message.
  }
}

/** Shows (once) the message the previous page left, if any. */
export function showFlashedMessage(): void {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
  } catch {
    return;
  }
  if (!raw) return;
  try {
    const message = JSON.parse(raw) as AdminMessage;
    if ((message.type === 'success' || message.type === 'error') && typeof message.text === 'string') $adminMessage.set(message);
  } catch {
    // A damaged entry is dropped.
  }
}

/** "Live in 12 ms" for the admin, from the API's live_ms. */
export function formatLiveTime(liveMs: number): string {
  const shown = liveMs < 10 ? Math.round(liveMs * 10) / 10 : Math.round(liveMs);
  return `Live in ${shown} ms`;
}
