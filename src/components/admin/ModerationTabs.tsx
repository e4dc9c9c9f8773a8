import { useRef, type KeyboardEvent } from 'react';
import type { CommentStatus } from '../../shared/api-types.ts';

export const MODERATION_TABS: ReadonlyArray<{ status: CommentStatus; label: string }> = [
  { status: 'pending', label: 'Pending' },
  { status: 'approved', label: 'Approved' },
  { status: 'spam', label: 'Spam' },
];

export const tabId = (status: CommentStatus) => `moderation-tab-${status}`;
export const PANEL_ID = 'moderation-panel';

/**
 * The moderation tabs as a WAI-ARIA tablist: one tab stop (the selected tab), arrow keys move
 * between tabs and select them, Home and End jump to the ends.
 */
export function ModerationTabs({
  selected,
  onSelect,
  pending,
}: {
  selected: CommentStatus;
  onSelect: (status: CommentStatus) => void;
  pending: number | null;
}) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = MODERATION_TABS.findIndex((tab) => tab.status === selected);
    const last = MODERATION_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % MODERATION_TABS.length
        : event.key === 'ArrowLeft'
          ? (index + last) % MODERATION_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const status = MODERATION_TABS[next]!.status;
    onSelect(status);
    refs.current[status]?.focus();
  };

  return (
    <div className="moderation-tabs" role="tablist" aria-label="Comments by status">
      {MODERATION_TABS.map((tab) => (
        <button
          key={tab.status}
          ref={(element) => {
            refs.current[tab.status] = element;
          }}
          type="button"
          role="tab"
          id={tabId(tab.status)}
          aria-selected={tab.status === selected}
          aria-controls={PANEL_ID}
          tabIndex={tab.status === selected ? 0 : -1}
          onClick={() => onSelect(tab.status)}
          onKeyDown={onKeyDown}
        >
          {tab.label}
          {tab.status === 'pending' && pending !== null && pending > 0 ? ` (${pending})` : ''}
        </button>
      ))}
    </div>
  );
}
