import { useEffect, useState } from 'react';
import { deleteBlog, listBlogs, messageOf } from '../../client/api.ts';
import type { BlogListItem } from '../../shared/api-types.ts';
import { Pager } from './Pager.tsx';
import { usePagedAdminList } from './use-admin-list.ts';
import { useConfirmDelete } from './use-confirm-delete.ts';

export const BLOGS_TABLE_MESSAGES = {
  confirmDelete: 'Are you sure you want to delete this blog?',
  deleted: 'Blog deleted successfully.',
  deleteFailed: 'Failed to delete the blog.',
  loadFailed: 'Failed to fetch blogs.',
} as const;

export const BLOGS_PAGE_SIZE = 20;

/**
 * The blog table of /admin and /admin/blogs-manage (Title, Author, Actions). The server pages
 * and searches (limit/offset/search, X-Total-Count), so 10,000 articles cost one small page.
 */
export default function BlogsTable() {
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');

  const list = usePagedAdminList({
    pageSize: BLOGS_PAGE_SIZE,
    load: (query, signal) => listBlogs({ ...query, search }, signal),
    loadFailed: BLOGS_TABLE_MESSAGES.loadFailed,
    filterKey: search,
  });
  const { page, setPage, items: blogs, total, pages, status } = list;
  const { deleting, onDelete } = useConfirmDelete<BlogListItem>({
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
      </form>
      <p className="table-summary" role="status">
        {status === 'loading'
          ? 'Loading blogs...'
          : status === 'failed'
            ? ''
            : `${total} ${total === 1 ? 'blog' : 'blogs'}${search ? ` matching "${search}"` : ''}`}
      </p>
      <div className="table-wrap">
        <table className="admin-table" aria-busy={status === 'loading'}>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Author</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {blogs.map((blog) => (
              <tr key={blog.id}>
                <td>{blog.title}</td>
                <td>{blog.author}</td>
                <td className="actions">
                  <a className="btn btn-small" href={`/admin/edit-blog/${blog.id}`} aria-label={`Edit ${blog.title}`}>
                    Edit
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
            {status === 'ready' && blogs.length === 0 && (
              <tr>
                <td colSpan={3}>{search ? 'No blogs match this search.' : 'No blogs yet.'}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager page={page} pages={pages} onPage={setPage} label="Blog pages" />
    </section>
  );
}
