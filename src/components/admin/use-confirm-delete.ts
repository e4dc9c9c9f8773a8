import { useState } from 'react';
import type { DeletedAnswer } from '../../shared/api-types.ts';
import { showError, showSuccess } from '../../stores/admin.ts';

interface Options<T> {
  confirmText: string;
  remove: (item: T) => Promise<DeletedAnswer>;
  /** Updates the screen once the server has deleted the item. */
  onDeleted: (item: T) => void;
  /** Shown when the server's answer has no message of its own. */
  deletedText: string;
  /** The banner text for a failure (docs/product.md#messages differs per screen). */
  failureText: (error: unknown) => string;
}

/** Delete after a confirm: the row's button is disabled meanwhile; the banner tells the outcome and live time. */
export function useConfirmDelete<T extends { id: number }>({
  confirmText,
  remove,
  onDeleted,
  deletedText,
  failureText,
}: Options<T>) {
  const [deleting, setDeleting] = useState<number | null>(null);

  const onDelete = async (item: T) => {
    if (!window.confirm(confirmText)) return;
    setDeleting(item.id);
    try {
      const answer = await remove(item);
      onDeleted(item);
      showSuccess(answer.message || deletedText, answer.live_ms ?? null);
    } catch (error) {
      console.error(error);
      showError(failureText(error));
    } finally {
      setDeleting(null);
    }
  };

  return { deleting, onDelete };
}
