import { formatDate } from '../../shared/dates.ts';
import type { OwnCommentDto, RecentReadDto } from '../../shared/api-types.ts';
import type { SavedEntry } from '../../client/library/saved-list.ts';
import { articleHref } from '../../shared/site-map/paths.ts';

/** The three lists of the library page. */

const COMMENT_STATUS = {
  approved: 'Published',
  pending: 'Awaiting approval',
  spam: 'Not published (held as spam)',
} as const;

/** Only links to this site's files or to http(s) addresses become links. */
function safeLink(link: string | null): string | null {
  if (!link) return null;
  if (link.startsWith('/') && !link.startsWith('//')) return link;
  return /^https?:\/\//i.test(link) ? link : null;
}

export function SavedList({
  saved,
  offline,
  onRemove,
  markDeviceOnly = false,
}: {
  saved: SavedEntry[];
  offline: ReadonlySet<number>;
  onRemove: (entry: SavedEntry) => Promise<void>;
  /** Signed in: entries the account has not taken yet are marked as this device's only. */
  markDeviceOnly?: boolean;
}) {
  return (
    <section className="library-section" aria-labelledby="library-saved">
      <h2 id="library-saved">Saved articles ({saved.length})</h2>
      {saved.length === 0 ? (
        <p className="library-empty">
          Nothing saved yet. Use the Save button on an article to keep it here, also for reading offline.
        </p>
      ) : (
        <ul className="library-list" data-library-saved>
          {saved.map((entry) => {
            const pdf = safeLink(entry.pdf_link);
            return (
              <li key={entry.id} className="library-item" data-saved-id={entry.id}>
                <div className="library-item-main">
                  <a className="library-item-title" href={articleHref(entry.id)} dir="auto">
                    {entry.title}
                  </a>
                  <span className="meta">
                    {entry.category_name && <span dir="auto">{entry.category_name}</span>}
                    {formatDate(entry.saved_at) && <span>Saved {formatDate(entry.saved_at)}</span>}
                    <span>{offline.has(entry.id) ? 'Available offline' : 'Not yet available offline'}</span>
                    {markDeviceOnly && entry.device && <span>On this device only, not in your account</span>}
                  </span>
                </div>
                <div className="library-item-actions">
                  {pdf && (
                    <a className="button button-secondary" href={pdf} download>
                      PDF<span className="visually-hidden">: {entry.title}</span>
                    </a>
                  )}
                  <button type="button" className="button button-secondary" onClick={() => void onRemove(entry)}>
                    Remove<span className="visually-hidden">: {entry.title}</span>
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function RecentList({ recent }: { recent: RecentReadDto[] }) {
  return (
    <section className="library-section" aria-labelledby="library-recent">
      <h2 id="library-recent">Recently read</h2>
      {recent.length === 0 ? (
        <p className="library-empty">Articles you open while logged in appear here, with where you stopped.</p>
      ) : (
        <ul className="library-list" data-library-recent>
          {recent.map((read) => {
            const percent = Math.round(read.position * 100);
            return (
              <li key={read.id} className="library-item">
                <div className="library-item-main">
                  <a className="library-item-title" href={articleHref(read.id, read.position)} dir="auto">
                    {read.title}
                  </a>
                  <span className="meta">
                    <span>{percent >= 100 ? 'Read to the end' : `Stopped at ${percent}%`}</span>
                    {formatDate(read.read_at) && <span>{formatDate(read.read_at)}</span>}
                  </span>
                </div>
                <progress className="library-progress" max={100} value={percent} aria-label={`${read.title}: ${percent}% read`} />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function CommentsList({ comments }: { comments: OwnCommentDto[] }) {
  return (
    <section className="library-section" aria-labelledby="library-comments">
      <h2 id="library-comments">My comments</h2>
      {comments.length === 0 ? (
        <p className="library-empty">Comments you write while logged in appear here, with whether they are published.</p>
      ) : (
        <ul className="library-list" data-library-comments>
          {comments.map((comment) => (
            <li key={comment.id} className="library-item">
              <div className="library-item-main">
                <a className="library-item-title" href={articleHref(comment.blog_id)} dir="auto">
                  {comment.blog_title}
                </a>
                <p className="library-comment" dir="auto">
                  {comment.comment}
                </p>
                <span className="meta">
                  <span className={`status-badge status-${comment.status}`}>{COMMENT_STATUS[comment.status]}</span>
                  {formatDate(comment.created_at) && <span>{formatDate(comment.created_at)}</span>}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
