import { useEffect, useId, useRef, useState } from 'react';
import { EditorPanel } from '../toolbar/EditorPanel.tsx';

export type TableAction = 'addRow' | 'addColumn' | 'deleteRow' | 'deleteColumn' | 'alignLeft' | 'alignCenter' | 'alignRight';

const EDITS: [TableAction, string][] = [
  ['addRow', 'Add row below'],
  ['addColumn', 'Add column right'],
  ['deleteRow', 'Delete row'],
  ['deleteColumn', 'Delete column'],
  ['alignLeft', 'Align column left'],
  ['alignCenter', 'Align column centre'],
  ['alignRight', 'Align column right'],
];

/**
 * Inserts a table (its first row is the header row) or, with the cursor in one, edits it: rows,
 * columns and the alignment of the cursor's column.
 */
export function TablePanel({
  inTable,
  onInsert,
  onEdit,
  onClose,
}: {
  inTable: boolean;
  onInsert: (rows: number, columns: number) => void;
  onEdit: (action: TableAction) => void;
  onClose: () => void;
}) {
  const [rows, setRows] = useState(3);
  const [columns, setColumns] = useState(3);
  const firstRef = useRef<HTMLInputElement & HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => firstRef.current?.focus(), []);
  const clamp = (n: number) => Math.min(20, Math.max(1, Math.round(n) || 1));

  if (inTable) {
    return (
      <EditorPanel label="Table" onClose={onClose}>
        <div className="panel-choices">
          {EDITS.map(([action, label], i) => (
            <button
              key={action}
              ref={i === 0 ? firstRef : undefined}
              type="button"
              className="btn"
              onClick={() => onEdit(action)}
            >
              {label}
            </button>
          ))}
        </div>
      </EditorPanel>
    );
  }
  return (
    <EditorPanel
      label="Table"
      onClose={onClose}
      actions={
        <button type="button" className="btn btn-primary" onClick={() => onInsert(clamp(rows), clamp(columns))}>
          Insert table
        </button>
      }
    >
      <div className="panel-row">
        <label htmlFor={`${id}-rows`}>Rows (with the header row)</label>
        <input
          id={`${id}-rows`}
          ref={firstRef}
          type="number"
          min={2}
          max={20}
          value={rows}
          onChange={(e) => setRows(Number(e.target.value))}
        />
        <label htmlFor={`${id}-cols`}>Columns</label>
        <input
          id={`${id}-cols`}
          type="number"
          min={1}
          max={20}
          value={columns}
          onChange={(e) => setColumns(Number(e.target.value))}
        />
      </div>
    </EditorPanel>
  );
}
