interface DeleteButtonProps {
  /** The accessible name, naming what goes: "Delete slide Spring term". */
  label: string;
  /** Disabled while this item's delete is under way. */
  busy: boolean;
  onPress: () => void;
}

/** The small red Delete button of an admin list row. */
export function DeleteButton({ label, busy, onPress }: DeleteButtonProps) {
  return (
    <button type="button" className="btn btn-small btn-danger" aria-label={label} disabled={busy} onClick={onPress}>
      Delete
    </button>
  );
}
