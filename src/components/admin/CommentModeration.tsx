import { useState } from 'react';
import type { CommentStatus, ModerationAction } from '../../shared/api-types.ts';
import CommentsTable, { ACTIONS_BY_STATUS } from './CommentsTable.tsx';
import { ModerationTabs, PANEL_ID, tabId } from './ModerationTabs.tsx';
import { Pager } from './Pager.tsx';
import { useModeration } from './use-moderation.ts';

const BULK_LABEL: Record<ModerationAction, string> = {
  approve: 'Approve selected',
  spam: 'Mark selected as spam',
  delete: 'Delete selected',
};

/**
 * /admin/comments-manage: comments by status (Pending first: what a rule held), with approve,
 * mark as spam and delete for one comment or the ticked ones (docs/product.md#comment-moderation).
 */
const STATUSES: readonly CommentStatus[] = ['pending', 'approved', 'spam'];

/** The tab named in the address (`?status=approved`), so a tab can be linked to and survives a reload. */
function statusInAddress(): CommentStatus {
  const named = new URLSearchParams(window.location.search).get('status');
  return STATUSES.find((s) => s === named) ?? 'pending';
}

function showStatusInAddress(status: CommentStatus): void {
  const url = new URL(window.location.href);
  if (status === 'pending') url.searchParams.delete('status');
  else url.searchParams.set('status', status);
  window.history.replaceState(null, '', url);
}

export default function CommentModeration() {
  const [status, setStatus] = useState<CommentStatus>(statusInAddress);
  const select = (next: CommentStatus) => {
    setStatus(next);
    showStatusInAddress(next);
  };
  const [pending, setPending] = useState<number | null>(null);
  return (
    <section className="admin-card" aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <ModerationTabs selected={status} onSelect={select} pending={pending} />
      {/* A panel per tab: rows, page and ticks of one tab never show under another. */}
      <ModerationPanel key={status} status={status} onPending={setPending} />
    </section>
  );
}

function ModerationPanel({ status, onPending }: { status: CommentStatus; onPending: (count: number) => void }) {
  const moderation = useModeration(status, onPending);
  const { list, selectedIds } = moderation;
  const summary =
    list.status === 'loading'
      ? 'Loading comments...'
      : list.status === 'ready'
        ? `${list.total} ${status} ${list.total === 1 ? 'comment' : 'comments'}`
        : '';

  return (
    <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(status)} className="moderation-panel">
      <p className="table-summary" role="status">
        {summary}
      </p>
      <div className="bulk-actions" role="group" aria-label="Bulk actions">
        <span className="bulk-count">{`${selectedIds.length} selected`}</span>
        {ACTIONS_BY_STATUS[status].map(({ action }) => (
          <button
            key={action}
            type="button"
            className={`btn btn-small${action === 'delete' ? ' btn-danger' : ''}`}
            disabled={selectedIds.length === 0 || moderation.working}
            onClick={() => void moderation.act(selectedIds, action)}
          >
            {BULK_LABEL[action]}
          </button>
        ))}
      </div>
      <CommentsTable
        status={status}
        comments={list.items}
        loading={list.status === 'loading'}
        ready={list.status === 'ready'}
        isSelected={(id) => moderation.selected.has(id)}
        allSelected={moderation.allSelected}
        onToggle={moderation.toggle}
        onToggleAll={moderation.toggleAll}
        onAction={(comment, action) => void moderation.act([comment.id], action)}
        disabled={moderation.working}
      />
      <Pager page={list.page} pages={list.pages} onPage={list.setPage} label="Comment pages" />
    </div>
  );
}
