import { useEffect, useState } from 'react';
import { getRevision, listRevisions, restoreRevision } from '../../client/revisions-api.ts';
import { messageOf } from '../../client/api.ts';
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
  import: 'Imported',
  // About/Contact: the built-in text, recorded when the first save replaced it.
  builtin: 'Built-in text, replaced',
};

/** What the list shows of a revision; articles have a title, About and Contact do not. */
interface RevisionListItem {
  id: number;
  username: string;
  action: string;
  created_at: string;
  title?: string;
}

/** What the diff compares of one revision. */
interface RevisionText {
  title?: string;
  content: string;
  content_source: string | null;
}

/** The text a revision and the editor are compared by: the editor's markdown, or the HTML's text for old texts without it. */
function revisionText(revision: RevisionText): string {
  if (revision.content_source) return revision.content_source;
  return new DOMParser().parseFromString(revision.content, 'text/html').body.textContent ?? '';
}

interface Props<Saved> {
  /** Where the list, each revision and its restore are answered (`blogRevisionsUrl`, `infoPageRevisionsUrl`). */
  revisionsUrl: string;
  /** Changes after each save, so the list reloads. */
  version: number;
  /** The text in the form now, and its title where there is one (articles). */
  current: () => { title?: string; text: string };
  /** The restore's answer: the save it made. */
  onRestored: (saved: Saved) => void;
}

/**
 * An edit screen's revisions (articles, About and Contact): who saved when, what changed since
 * (the title where there is one, and the text), and restore.
 */
export function RevisionsPanel<Saved>({ revisionsUrl, version, current, onRestored }: Props<Saved>) {
  const [revisions, setRevisions] = useState<RevisionListItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState<{ id: number; title: DiffPart[] | null; text: DiffPart[] } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    listRevisions<RevisionListItem>(revisionsUrl, controller.signal)
      .then((list) => {
        setRevisions(list);
        setFailed(false);
      })
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, [revisionsUrl, version]);

  const showChanges = async (revision: RevisionListItem) => {
    if (open?.id === revision.id) return setOpen(null);
    setBusy(revision.id);
    try {
      const full = await getRevision<RevisionText>(revisionsUrl, revision.id);
      const now = current();
      const title = full.title !== undefined && now.title !== undefined ? diffWords(full.title, now.title) : null;
      setOpen({ id: revision.id, title, text: diffWords(revisionText(full), now.text) });
    } catch (error) {
      showError(messageOf(error, 'Failed to load the revision.'));
    } finally {
      setBusy(null);
    }
  };

  const restore = async (revision: RevisionListItem) => {
    if (
      !window.confirm(
        `Restore the revision from ${when.format(new Date(revision.created_at))}? The current text stays in the list.`,
      )
    )
      return;
    setBusy(revision.id);
    try {
      onRestored(await restoreRevision<Saved>(revisionsUrl, revision.id));
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
                <strong>{label}</strong>
                {revision.title !== undefined && <>: “{revision.title}”</>}
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
                  {open.title && <RevisionDiff label="Title" parts={open.title} />}
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
