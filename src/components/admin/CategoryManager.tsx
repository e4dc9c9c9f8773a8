import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { CATEGORY_MESSAGES, DEFAULT_CATEGORY_SEQUENCE, validateCategoryInput } from '../../shared/validation/category.ts';
import { hasErrors, type FieldErrors } from '../../shared/validation/common.ts';
import { showError, showSuccess } from '../../stores/admin.ts';
import { ApiError, createCategory, deleteCategory, listCategories, messageOf, updateCategory } from '../../client/api.ts';
import type { CategoryDto } from '../../shared/api-types.ts';
import { FieldError, describedBy } from './FieldError.tsx';

export const CATEGORY_UI_MESSAGES = {
  added: 'Category added successfully.',
  updated: 'Category updated successfully.',
  deleted: 'Category deleted successfully',
  deleteFailed: 'Failed to delete category.',
  confirmDelete: 'Are you sure you want to delete this category? Its articles will show as General.',
} as const;

/** Orders like the server does: by sequence, then id. */
function bySequence(list: CategoryDto[]): CategoryDto[] {
  return [...list].sort((a, b) => a.sequence - b.sequence || a.id - b.id);
}

/**
 * /admin/category: the list by sequence, add, inline edit with Save and Cancel, and delete.
 * Sequence inputs are text (numeric keypad): a number input hides what was typed when it is not
 * a number, and the admin should see "must be a whole number" rather than a silent 0.
 */
export default function CategoryManager() {
  const [categories, setCategories] = useState<CategoryDto[]>([]);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [name, setName] = useState('');
  const [sequence, setSequence] = useState(String(DEFAULT_CATEGORY_SEQUENCE));
  const [addErrors, setAddErrors] = useState<FieldErrors>({});
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<{ id: number; name: string; sequence: string; errors: FieldErrors } | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<number | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    listCategories(controller.signal)
      .then((list) => {
        setCategories(bySequence(list));
        setStatus('ready');
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        setStatus('failed');
        showError(CATEGORY_MESSAGES.fetchFailed);
      });
    return () => controller.abort();
  }, []);

  const onAdd = async (event: SubmitEvent) => {
    event.preventDefault();
    const { values, errors } = validateCategoryInput({ name, sequence });
    setAddErrors(errors);
    if (hasErrors(errors)) {
      document.getElementById(errors.name ? 'category-name' : 'category-sequence')?.focus();
      return;
    }
    setAdding(true);
    try {
      const created = await createCategory(values);
      setCategories((list) => bySequence([...list, { id: created.id, name: created.name, sequence: created.sequence }]));
      setName('');
      setSequence(String(DEFAULT_CATEGORY_SEQUENCE));
      showSuccess(CATEGORY_UI_MESSAGES.added, created.live_ms ?? null);
      nameInput.current?.focus();
    } catch (error) {
      console.error(error);
      if (error instanceof ApiError && error.status === 400 && hasErrors(error.fields)) setAddErrors(error.fields);
      showError(CATEGORY_MESSAGES.createFailed);
    } finally {
      setAdding(false);
    }
  };

  const onSave = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!editing) return;
    const { values, errors } = validateCategoryInput({ name: editing.name, sequence: editing.sequence });
    if (hasErrors(errors)) {
      setEditing({ ...editing, errors });
      document.getElementById(errors.name ? `edit-name-${editing.id}` : `edit-sequence-${editing.id}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const saved = await updateCategory(editing.id, values);
      setCategories((list) =>
        bySequence(list.map((c) => (c.id === saved.id ? { id: saved.id, name: saved.name, sequence: saved.sequence } : c))),
      );
      setEditing(null);
      showSuccess(CATEGORY_UI_MESSAGES.updated, saved.live_ms ?? null);
    } catch (error) {
      console.error(error);
      if (error instanceof ApiError && error.status === 400 && hasErrors(error.fields))
        setEditing({ ...editing, errors: error.fields });
      showError(CATEGORY_MESSAGES.updateFailed);
    } finally {
      setSaving(false);
    }
  };

  const onDelete = async (category: CategoryDto) => {
    if (!window.confirm(CATEGORY_UI_MESSAGES.confirmDelete)) return;
    setDeleting(category.id);
    try {
      const answer = await deleteCategory(category.id);
      setCategories((list) => list.filter((c) => c.id !== category.id));
      if (editing?.id === category.id) setEditing(null);
      showSuccess(answer.message || CATEGORY_UI_MESSAGES.deleted, answer.live_ms ?? null);
    } catch (error) {
      console.error(error);
      showError(messageOf(error, CATEGORY_UI_MESSAGES.deleteFailed));
    } finally {
      setDeleting(null);
    }
  };

  return (
    <>
      <section className="admin-card" aria-labelledby="add-category-heading">
        <h2 id="add-category-heading">Add category</h2>
        <form className="admin-form inline-form" noValidate onSubmit={onAdd}>
          <div className="field">
            <label htmlFor="category-name">Name</label>
            <input
              id="category-name"
              ref={nameInput}
              type="text"
              value={name}
              required
              aria-invalid={addErrors.name ? true : undefined}
              aria-describedby={describedBy('category-name', addErrors.name)}
              onChange={(event) => {
                setName(event.target.value);
                setAddErrors(({ name: _dropped, ...rest }) => rest);
              }}
            />
            <FieldError id="category-name" message={addErrors.name} />
          </div>
          <div className="field">
            <label htmlFor="category-sequence">Sequence</label>
            <input
              id="category-sequence"
              type="text"
              inputMode="numeric"
              value={sequence}
              aria-invalid={addErrors.sequence ? true : undefined}
              aria-describedby={describedBy('category-sequence', addErrors.sequence)}
              onChange={(event) => {
                setSequence(event.target.value);
                setAddErrors(({ sequence: _dropped, ...rest }) => rest);
              }}
            />
            <FieldError id="category-sequence" message={addErrors.sequence} />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={adding}>
              Add Category
            </button>
          </div>
        </form>
      </section>

      <section className="admin-card" aria-labelledby="categories-heading">
        <h2 id="categories-heading">Categories</h2>
        {status === 'loading' && (
          <p className="loading" role="status">
            Loading categories...
          </p>
        )}
        {status === 'ready' && categories.length === 0 && <p>No categories yet.</p>}
        {categories.length > 0 && (
          <div className="table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Sequence</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {categories.map((category) =>
                  editing?.id === category.id ? (
                    <tr key={category.id} className="editing">
                      <td>
                        <label className="visually-hidden" htmlFor={`edit-name-${category.id}`}>
                          Name
                        </label>
                        <input
                          id={`edit-name-${category.id}`}
                          form={`edit-category-${category.id}`}
                          type="text"
                          value={editing.name}
                          autoFocus
                          aria-invalid={editing.errors.name ? true : undefined}
                          aria-describedby={describedBy(`edit-name-${category.id}`, editing.errors.name)}
                          onChange={(event) => setEditing({ ...editing, name: event.target.value, errors: {} })}
                          onKeyDown={(event) => event.key === 'Escape' && setEditing(null)}
                        />
                        <FieldError id={`edit-name-${category.id}`} message={editing.errors.name} />
                      </td>
                      <td>
                        <label className="visually-hidden" htmlFor={`edit-sequence-${category.id}`}>
                          Sequence
                        </label>
                        <input
                          id={`edit-sequence-${category.id}`}
                          form={`edit-category-${category.id}`}
                          type="text"
                          inputMode="numeric"
                          value={editing.sequence}
                          aria-invalid={editing.errors.sequence ? true : undefined}
                          aria-describedby={describedBy(`edit-sequence-${category.id}`, editing.errors.sequence)}
                          onChange={(event) => setEditing({ ...editing, sequence: event.target.value, errors: {} })}
                          onKeyDown={(event) => event.key === 'Escape' && setEditing(null)}
                        />
                        <FieldError id={`edit-sequence-${category.id}`} message={editing.errors.sequence} />
                      </td>
                      <td className="actions">
                        {/* A form cannot wrap table cells, so the inputs join it through their form attribute. */}
                        <form id={`edit-category-${category.id}`} noValidate onSubmit={onSave}>
                          <button type="submit" className="btn btn-small btn-primary" disabled={saving}>
                            Save
                          </button>{' '}
                          <button type="button" className="btn btn-small" onClick={() => setEditing(null)}>
                            Cancel
                          </button>
                        </form>
                      </td>
                    </tr>
                  ) : (
                    <tr key={category.id}>
                      <td>{category.name}</td>
                      <td>{category.sequence}</td>
                      <td className="actions">
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={`Edit ${category.name}`}
                          onClick={() =>
                            setEditing({ id: category.id, name: category.name, sequence: String(category.sequence), errors: {} })
                          }
                        >
                          Edit
                        </button>
                        <button
                          type="button"
                          className="btn btn-small btn-danger"
                          aria-label={`Delete ${category.name}`}
                          disabled={deleting === category.id}
                          onClick={() => void onDelete(category)}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
