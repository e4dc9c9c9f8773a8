import { useEffect, useState } from 'react';
import { deleteBlog, listBlogs, messageOf } from '../../client/api.ts';
import type { AdminBlogDto, BlogStatus } from '../../shared/api-types.ts';
import { formatDate } from '../../shared/dates.ts';
import { STATUS_FILTERS, siteLink, statusText } from './publishing.ts';
import './publishing.css';
import { Pager } from './Pager.tsx';
import { usePagedAdminList } from './use-admin-list.ts';
import { useConfirmDelete } from './use-confirm-delete.ts';
import { adminEditHref } from '../../shared/site-map/paths.ts';

export const BLOGS_TABLE_MESSAGES = {
  confirmDelete: 'Are you sure you want to delete this blog?',
  deleted: 'Blog deleted successfully.',
  deleteFailed: 'Failed to delete the blog.',
  loadFailed: 'Failed to fetch blogs.',
} as const;

export const BLOGS_PAGE_SIZE = 20;

/** The status filter starts from `?status=` (the dashboard's counts link there). */
function initialStatus(): BlogStatus | '' {
  const asked = typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('status') ?? '');
  return STATUS_FILTERS.find((f) => f.value === asked)?.value ?? '';
}

/**
 * The blog table of /admin and /admin/blogs-manage (Title, Status, Date, Category, Views, Author,
 * Actions). The server pages, searches and filters by status (limit/offset/search/status,
 * X-Total-Count), so 10,000 articles cost one small page.
 */
export default function BlogsTable() {
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<BlogStatus | ''>(initialStatus);

  const list = usePagedAdminList({
    pageSize: BLOGS_PAGE_SIZE,
    load: (query, signal) => listBlogs({ ...query, search, status: status || undefined }, signal),
    loadFailed: BLOGS_TABLE_MESSAGES.loadFailed,
    filterKey: `${search}|${status}`,
  });
  const { page, setPage, items: blogs, total, pages, status: loadStatus } = list;
  const { deleting, onDelete } = useConfirmDelete<AdminBlogDto>({
    confirmText: BLOGS_TABLE_MESSAGES.confirmDelete,
    remove: (blog) => deleteBlog(blog.id),
    onDeleted: (blog) => list.removeItem(blog.id),
    deletedText: BLOGS_TABLE_MESSAGES.deleted,
    failureText: (error) => messageOf(error, BLOGS_TABLE_MESSAGES.deleteFailed),
  });

  // Typing settles for a moment before the server is asked. Only a changed search goes back to
  // page 1 (an unchanged one must not undo a page the admin just moved to).
  useEffect(() => {
    const next = searchText.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [searchText, search, setPage]);

  return (
    <section className="admin-card" aria-labelledby="blogs-heading">
      <div className="card-head">
        <h2 id="blogs-heading">Blogs</h2>
        <a className="btn btn-primary" href="/admin/blogs-create">
          Create blog
        </a>
      </div>
      <form className="table-search" role="search" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="blog-search">Search blogs</label>
        <input
          id="blog-search"
          type="search"
          value={searchText}
          placeholder="Title or text"
          onChange={(event) => setSearchText(event.target.value)}
        />
        <label htmlFor="blog-status-filter">Status</label>
        <select
          id="blog-status-filter"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as BlogStatus | '');
            setPage(1);
          }}
        >
          {STATUS_FILTERS.map((filter) => (
            <option key={filter.value} value={filter.value}>
              {filter.label}
            </option>
          ))}
        </select>
      </form>
      <p className="table-summary" role="status">
        {loadStatus === 'loading'
          ? 'Loading blogs...'
          : loadStatus === 'failed'
            ? ''
            : `${total} ${total === 1 ? 'blog' : 'blogs'}${search ? ` matching "${search}"` : ''}`}
      </p>
      <div className="table-wrap">
        <table className="admin-table" aria-busy={loadStatus === 'loading'}>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Status</th>
              <th scope="col">Date</th>
              <th scope="col">Category</th>
              <th scope="col">Views</th>
              <th scope="col">Author</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {blogs.map((blog) => (
              <tr key={blog.id}>
                <td dir="auto">{blog.title}</td>
                <td data-label="Status">
                  <span className={`status-label status-${blog.status}`}>{statusText(blog)}</span>
                </td>
                <td className="nowrap" data-label="Date">
                  <time dateTime={blog.created_at}>{formatDate(blog.created_at)}</time>
                </td>
                <td data-label="Category" dir="auto">
                  {blog.category_name ?? ''}
                </td>
                <td data-label="Views">{blog.clicks}</td>
                <td data-label="Author" dir="auto">
                  {blog.author}
                </td>
                <td className="actions">
                  <a className="btn btn-small" href={adminEditHref(blog.id)} aria-label={`Edit ${blog.title}`}>
                    Edit
                  </a>
                  <a className="btn btn-small" href={siteLink(blog).href} aria-label={`${siteLink(blog).label}: ${blog.title}`}>
                    {siteLink(blog).label}
                  </a>
                  <button
                    type="button"
                    className="btn btn-small btn-danger"
                    aria-label={`Delete ${blog.title}`}
                    disabled={deleting === blog.id}
                    onClick={() => void onDelete(blog)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
            {loadStatus === 'ready' && blogs.length === 0 && (
              <tr>
                <td colSpan={7}>{search ? 'No blogs match this search.' : 'No blogs yet.'}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} onPage={setPage} label="Blog pages" />
    </section>
  );
}
