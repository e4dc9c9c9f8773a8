import { useState } from 'react';
import { messageOf, removeDemoContent } from '../../client/api.ts';
import type { DemoCountsDto } from '../../shared/api-types.ts';
import { showError, showSuccess } from '../../stores/admin.ts';
import { useRefreshDrain } from './use-refresh-drain.ts';

export const DEMO_MESSAGES = {
  confirm:
    'Remove all demo content? Its articles, their comments, the demo slides and categories and their pictures and PDFs are deleted for good.',
  failed: 'Failed to remove the demo content.',
  none: 'There is no demo content on the site.',
} as const;

const describe = (c: DemoCountsDto) =>
  `${c.blogs} articles, ${c.comments} comments, ${c.slides} carousel slides and ${c.categories} categories`;

/** The demo content's counts and its one-step removal, after a confirmation; every page is refreshed. */
export function DemoContentPanel({ counts, onRemoved }: { counts: DemoCountsDto | null; onRemoved: () => void }) {
  const [busy, setBusy] = useState(false);
  const { refreshText, watchRefresh } = useRefreshDrain();
  const any = counts !== null && counts.blogs + counts.slides + counts.categories > 0;

  const onRemove = async () => {
    if (!window.confirm(DEMO_MESSAGES.confirm)) return;
    setBusy(true);
    try {
      const answer = await removeDemoContent();
      onRemoved();
      showSuccess(answer.message, answer.live_ms);
      watchRefresh(answer.refresh);
    } catch (error) {
      console.error(error);
      showError(messageOf(error, DEMO_MESSAGES.failed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-card demo-content" aria-labelledby="demo-content-heading">
      <h2 id="demo-content-heading">Demo content</h2>
      {any ? (
        <>
          <p>The site still holds the demo content it started with: {describe(counts)}.</p>
          <button type="button" className="btn btn-danger" onClick={() => void onRemove()} disabled={busy} aria-busy={busy}>
            Remove demo content
          </button>
        </>
      ) : (
        <p>{DEMO_MESSAGES.none}</p>
      )}
      <p className="refresh-status" role="status" aria-live="polite">
        {refreshText}
      </p>
    </section>
  );
}
