import type { SubmitEvent } from 'react';
import type { FieldErrors } from '../../shared/validation/common.ts';
import { TextField } from '../forms/TextField.tsx';

export interface CategoryDraft {
  id: number;
  name: string;
  sequence: string;
  errors: FieldErrors;
}

interface Props {
  draft: CategoryDraft;
  saving: boolean;
  onChange: (draft: CategoryDraft) => void;
  onSave: (event: SubmitEvent) => void;
  onCancel: () => void;
}

/** A category row being edited in place: name and sequence inputs, Save and Cancel (Escape cancels too). */
export function CategoryEditRow({ draft, saving, onChange, onSave, onCancel }: Props) {
  const formId = `edit-category-${draft.id}`;
  const cancelOnEscape = (event: { key: string }) => event.key === 'Escape' && onCancel();
  return (
    <tr className="editing">
      <TextField
        inCell
        id={`edit-name-${draft.id}`}
        label="Name"
        form={formId}
        type="text"
        value={draft.name}
        autoFocus
        error={draft.errors.name}
        onChange={(event) => onChange({ ...draft, name: event.target.value, errors: {} })}
        onKeyDown={cancelOnEscape}
      />
      <TextField
        inCell
        id={`edit-sequence-${draft.id}`}
        label="Sequence"
        form={formId}
        type="text"
        inputMode="numeric"
        value={draft.sequence}
        error={draft.errors.sequence}
        onChange={(event) => onChange({ ...draft, sequence: event.target.value, errors: {} })}
        onKeyDown={cancelOnEscape}
      />
      <td className="actions">
        {/* A form cannot wrap table cells, so the inputs join it through their form attribute. */}
        <form id={formId} noValidate onSubmit={onSave}>
          <button type="submit" className="btn btn-small btn-primary" disabled={saving}>
            Save
          </button>{' '}
          <button type="button" className="btn btn-small" onClick={onCancel}>
            Cancel
          </button>
        </form>
      </td>
    </tr>
  );
}
