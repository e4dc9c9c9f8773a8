import type { KeyboardEvent } from 'react';

/** Escape closes a panel (and must not reach the page or the form). */
export function closeOnEscape(onClose: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };
}
