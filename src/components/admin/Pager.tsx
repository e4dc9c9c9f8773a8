/** First / Previous / Next / Last for a server-paged table; hidden when everything fits on one page. */
export function Pager({
  page,
  pages,
  onPage,
  label,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => onPage(1)}>
        First
      </button>
      <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="pager-status" aria-current="page">
        Page {page} of {pages}
      </span>
      <button type="button" className="btn btn-small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
      <button type="button" className="btn btn-small" disabled={page >= pages} onClick={() => onPage(pages)}>
        Last
      </button>
    </nav>
  );
}
