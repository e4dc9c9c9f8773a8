import { useRef, useState, type SubmitEvent } from 'react';
import { CATEGORY_MESSAGES, DEFAULT_CATEGORY_SEQUENCE, validateCategoryInput } from '../../shared/validation/category.ts';
import { hasErrors } from '../../shared/validation/common.ts';
import { showError, showSuccess } from '../../stores/admin.ts';
import { createCategory, deleteCategory, listCategories, messageOf, updateCategory } from '../../client/api.ts';
import type { CategoryDto } from '../../shared/api-types.ts';
import { CategoryEditRow, type CategoryDraft } from './CategoryEditRow.tsx';
import { TextField } from '../forms/TextField.tsx';
import { AdminCard, FormCard, ListBody } from './AdminCard.tsx';
import { DeleteButton } from './DeleteButton.tsx';
import { useAdminList } from './use-admin-list.ts';
import { useConfirmDelete } from './use-confirm-delete.ts';
import { serverFieldErrors, useFieldErrors } from './use-field-errors.ts';

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
  const {
    items: categories,
    setItems: setCategories,
    status,
  } = useAdminList(async (signal) => bySequence(await listCategories(signal)), CATEGORY_MESSAGES.fetchFailed);
  const [name, setName] = useState('');
  const [sequence, setSequence] = useState(String(DEFAULT_CATEGORY_SEQUENCE));
  const add = useFieldErrors([
    ['name', 'category-name'],
    ['sequence', 'category-sequence'],
  ]);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<CategoryDraft | null>(null);
  const [saving, setSaving] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const { deleting, onDelete } = useConfirmDelete<CategoryDto>({
    confirmText: CATEGORY_UI_MESSAGES.confirmDelete,
    remove: (category) => deleteCategory(category.id),
    onDeleted: (category) => {
      setCategories((list) => list.filter((c) => c.id !== category.id));
      if (editing?.id === category.id) setEditing(null);
    },
    deletedText: CATEGORY_UI_MESSAGES.deleted,
    failureText: (error) => messageOf(error, CATEGORY_UI_MESSAGES.deleteFailed),
  });

  const onAdd = async (event: SubmitEvent) => {
    event.preventDefault();
    const { values, errors } = validateCategoryInput({ name, sequence });
    if (add.showErrors(errors)) return;
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
      const fields = serverFieldErrors(error, 400);
      if (fields) add.setErrors(fields);
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
      const fields = serverFieldErrors(error, 400);
      if (fields) setEditing({ ...editing, errors: fields });
      showError(CATEGORY_MESSAGES.updateFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <FormCard
        headingId="add-category-heading"
        title="Add category"
        formClassName="admin-form inline-form"
        onSubmit={onAdd}
        sending={adding}
        submitLabel="Add Category"
      >
        <TextField
          id="category-name"
          label="Name"
          inputRef={nameInput}
          type="text"
          value={name}
          required
          error={add.errors.name}
          onChange={(event) => {
            setName(event.target.value);
            add.clearError('name');
          }}
        />
        <TextField
          id="category-sequence"
          label="Sequence"
          type="text"
          inputMode="numeric"
          value={sequence}
          error={add.errors.sequence}
          onChange={(event) => {
            setSequence(event.target.value);
            add.clearError('sequence');
          }}
        />
      </FormCard>

      <AdminCard headingId="categories-heading" title="Categories">
        <ListBody status={status} count={categories.length} loadingText="Loading categories..." emptyText="No categories yet.">
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
                    <CategoryEditRow
                      key={category.id}
                      draft={editing}
                      saving={saving}
                      onChange={setEditing}
                      onSave={onSave}
                      onCancel={() => setEditing(null)}
                    />
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
                        <DeleteButton
                          label={`Delete ${category.name}`}
                          busy={deleting === category.id}
                          onPress={() => void onDelete(category)}
                        />
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </div>
        </ListBody>
      </AdminCard>
    </>
  );
}
