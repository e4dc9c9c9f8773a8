import { useEffect, useState } from 'react';
import { getRevision, listRevisions, restoreRevision } from '../../client/revisions-api.ts';
import { messageOf } from '../../client/api.ts';
import type { AdminBlogDto, LiveTime, RevisionDto, RevisionSummaryDto } from '../../shared/api-types.ts';
import { diffWords, type DiffPart } from '../../shared/word-diff.ts';
import { showError } from '../../stores/admin.ts';
import { RevisionDiff } from './RevisionDiff.tsx';

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

const ACTIONS: Record<string, string> = {
  create: 'Created',
  update: 'Saved',
  autosave: 'Saved automatically',
  restore: 'Restored',
  publish: 'Published on schedule',
};

/** The text a revision and the editor are compared by: the editor's markdown, or the HTML's text for old articles without it. */
function revisionText(revision: RevisionDto): string {
  if (revision.content_source) return revision.content_source;
  return new DOMParser().parseFromString(revision.content, 'text/html').body.textContent ?? '';
}

interface Props {
  blogId: string;
  /** Changes after each save, so the list reloads. */
  version: number;
  /** The title and text in the form now. */
  current: () => { title: string; text: string };
  onRestored: (blog: AdminBlogDto & LiveTime) => void;
}

/** The edit screen's revisions: who saved when, what changed since (title and text), and restore. */
export function RevisionsPanel({ blogId, version, current, onRestored }: Props) {
  const [revisions, setRevisions] = useState<RevisionSummaryDto[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<{ id: number; title: DiffPart[]; text: DiffPart[] } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listRevisions(blogId, controller.signal)
      .then((list) => {
        setRevisions(list);
        setFailed(false);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [blogId, version]);

  const showChanges = async (revision: RevisionSummaryDto) => {
    if (open?.id === revision.id) return setOpen(null);
    setBusy(revision.id);
    try {
      const full = await getRevision(blogId, revision.id);
      const now = current();
      setOpen({ id: revision.id, title: diffWords(full.title, now.title), text: diffWords(revisionText(full), now.text) });
    } catch (error) {
      showError(messageOf(error, 'Failed to load the revision.'));
    } finally {
      setBusy(null);
    }
  };

  const restore = async (revision: RevisionSummaryDto) => {
    if (
      !window.confirm(
        `Restore the revision from ${when.format(new Date(revision.created_at))}? The current text stays in the list.`,
      )
    )
      return;
    setBusy(revision.id);
    try {
      onRestored(await restoreRevision(blogId, revision.id));
      setOpen(null);
    } catch (error) {
      showError(messageOf(error, 'Failed to restore the revision.'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="admin-card" aria-labelledby="revisions-heading">
      <h2 id="revisions-heading">Revisions</h2>
      {failed && <p role="alert">Failed to load the revisions.</p>}
      {!failed && revisions === null && <p role="status">Loading revisions...</p>}
      {revisions?.length === 0 && <p>No revisions yet.</p>}
      <p className="field-help">Struck-through words are only in the revision; underlined words are only in the current text.</p>
      <ul className="revision-list">
        {revisions?.map((revision) => {
          const label = `${ACTIONS[revision.action] ?? revision.action} by ${revision.username}, ${when.format(new Date(revision.created_at))}`;
          return (
            <li key={revision.id}>
              <span>
                <strong>{label}</strong>: “{revision.title}”
              </span>
              <button
                type="button"
                className="btn btn-small"
                aria-expanded={open?.id === revision.id}
                aria-label={`Show changes since: ${label}`}
                disabled={busy === revision.id}
                onClick={() => void showChanges(revision)}
              >
                Show changes
              </button>
              <button
                type="button"
                className="btn btn-small"
                aria-label={`Restore: ${label}`}
                disabled={busy === revision.id}
                onClick={() => void restore(revision)}
              >
                Restore
              </button>
              {open?.id === revision.id && (
                <div className="revision-diff">
                  <RevisionDiff label="Title" parts={open.title} />
                  <RevisionDiff label="Content" parts={open.text} />
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
