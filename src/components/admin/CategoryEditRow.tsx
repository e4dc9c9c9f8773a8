import type { ChangeEvent, SubmitEvent } from 'react';
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
  // Both cells edit the draft the same way: any change clears the row's errors; Escape cancels.
  const cellField = (key: 'name' | 'sequence') => ({
    inCell: true,
    id: `edit-${key}-${draft.id}`,
    form: formId,
    type: 'text',
    value: draft[key],
    error: draft.errors[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange({ ...draft, [key]: event.target.value, errors: {} }),
    onKeyDown: (event: { key: string }) => event.key === 'Escape' && onCancel(),
  });
  return (
    <tr className="editing">
      <TextField label="Name" {...cellField('name')} autoFocus />
      <TextField label="Sequence" {...cellField('sequence')} inputMode="numeric" />
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
