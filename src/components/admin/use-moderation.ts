import { useState } from 'react';
import { deleteComment, listCommentsByStatus, messageOf, moderateComments } from '../../client/api.ts';
import type { CommentStatus, ModerationAction, ModerationCommentDto } from '../../shared/api-types.ts';
import { showError, showSuccess } from '../../stores/admin.ts';
import { usePagedAdminList } from './use-admin-list.ts';
import { publishPendingComments } from './pending-count.ts';

export const MODERATION_MESSAGES = {
  loadFailed: 'Failed to fetch comments.',
  confirmDelete: 'Are you sure you want to delete this comment?',
  confirmDeleteMany: (n: number) => `Are you sure you want to delete these ${n} comments?`,
  deleted: 'Comment deleted successfully',
  failed: 'Failed to update the comments.',
} as const;

export const MODERATION_PAGE_SIZE = 25;

/**
 * One moderation tab's rows, the ticked rows, and the actions on them. Every action reloads the
 * page, whose answer carries the new pending count for the tabs and the side menu.
 */
export function useModeration(status: CommentStatus, onPending: (count: number) => void) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [working, setWorking] = useState(false);
  const list = usePagedAdminList<ModerationCommentDto>({
    pageSize: MODERATION_PAGE_SIZE,
    filterKey: status,
    loadFailed: MODERATION_MESSAGES.loadFailed,
    load: async (query, signal) => {
      const page = await listCommentsByStatus(status, query, signal);
      if (page.pending !== null) {
        onPending(page.pending);
        publishPendingComments(page.pending);
      }
      return page;
    },
  });

  const visibleIds = list.items.map((item) => item.id);
  const selectedIds = visibleIds.filter((id) => selected.has(id));
  const allSelected = visibleIds.length > 0 && selectedIds.length === visibleIds.length;

  const toggle = (id: number) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(visibleIds));

  /** Runs an action on the given comments; deleting asks first. Answers whether it ran. */
  const act = async (ids: number[], action: ModerationAction): Promise<boolean> => {
    if (ids.length === 0) return false;
    if (action === 'delete') {
      const question = ids.length === 1 ? MODERATION_MESSAGES.confirmDelete : MODERATION_MESSAGES.confirmDeleteMany(ids.length);
      if (!window.confirm(question)) return false;
    }
    setWorking(true);
    try {
      // One comment deleted goes through its own endpoint, which words the answer for one.
      const answer = action === 'delete' && ids.length === 1 ? await deleteComment(ids[0]!) : await moderateComments(ids, action);
      showSuccess(answer.message || MODERATION_MESSAGES.deleted, answer.live_ms ?? null);
      for (const id of ids) list.removeItem(id);
      setSelected((previous) => new Set([...previous].filter((id) => !ids.includes(id))));
      return true;
    } catch (error) {
      console.error(error);
      showError(messageOf(error, MODERATION_MESSAGES.failed));
      return false;
    } finally {
      setWorking(false);
    }
  };

  return { list, selectedIds, allSelected, toggle, toggleAll, act, working, selected };
}
