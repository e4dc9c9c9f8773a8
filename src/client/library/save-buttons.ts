import { ApiError } from '../http.ts';
import { $auth } from '../../stores/auth.ts';
import { onSavedListChange, readSavedList } from './saved-list.ts';
import { removeArticle, saveArticle, sendDeviceSaves, type SaveTarget } from './library-actions.ts';

/**
 * The Save buttons of a shared page (the article and every card): the server always sends them
 * hidden and unpressed, since the page is the same for every reader; this shows them and paints
 * this reader's state from the device's saved list.
 */

function targetOf(button: HTMLButtonElement): SaveTarget | null {
  const id = Number(button.dataset.saveArticle);
  if (!Number.isSafeInteger(id) || id < 1) return null;
  return {
    id,
    title: button.dataset.title ?? '',
    pdf_link: button.dataset.pdf || null,
    image: button.dataset.image || null,
    category_name: button.dataset.category || null,
  };
}

function paint(button: HTMLButtonElement, saved: boolean): void {
  button.setAttribute('aria-pressed', String(saved));
  const label = button.querySelector('[data-save-label]');
  if (label) label.textContent = saved ? 'Saved' : 'Save';
}

function messageFor(button: HTMLButtonElement): HTMLElement | null {
  return button.parentElement?.querySelector<HTMLElement>('[data-save-message]') ?? null;
}

function describe(error: unknown): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return 'Could not reach the site. Check your connection and try again.';
}

async function toggle(button: HTMLButtonElement, target: SaveTarget): Promise<void> {
  const message = messageFor(button);
  const wasSaved = button.getAttribute('aria-pressed') === 'true';
  button.disabled = true;
  if (message) message.textContent = '';
  try {
    if (wasSaved) await removeArticle(target.id);
    else await saveArticle(target);
    if (message)
      message.textContent = wasSaved ? 'Removed from your library.' : 'Saved to your library, also for offline reading.';
  } catch (error) {
    if (message) message.textContent = describe(error);
  } finally {
    button.disabled = false;
  }
}

export function startSaveButtons(root: ParentNode = document): void {
  const buttons = [...root.querySelectorAll<HTMLButtonElement>('button[data-save-article]')];
  const repaint = () => {
    const saved = new Set(readSavedList().map((entry) => entry.id));
    for (const button of buttons) paint(button, saved.has(Number(button.dataset.saveArticle)));
  };
  for (const button of buttons) {
    const target = targetOf(button);
    if (!target) continue;
    button.hidden = false;
    button.addEventListener('click', () => void toggle(button, target));
  }
  repaint();
  onSavedListChange(repaint);
  // Another tab saved or removed something.
  window.addEventListener('storage', (event) => {
    if (event.key === 'library.saved') repaint();
  });
  // Signed in with articles saved on this device before: they go into the account.
  $auth.subscribe((state) => {
    if (state.status === 'user')
      sendDeviceSaves().catch((error: unknown) => console.error('Could not send this device’s saves', error));
  });
}
