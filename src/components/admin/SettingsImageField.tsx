import { TextField } from '../forms/TextField.tsx';
import { IMAGE_LABELS, type ImageField } from '../../shared/validation/settings.ts';
import { settingInputId } from './use-settings-form.ts';

interface Props {
  field: ImageField;
  value: string;
  error: string | undefined;
  help: string;
  disabled: boolean;
  onPick: (file: File | null) => void;
  onRemove: () => void;
}

/** One image setting: the current picture, a file input (uploaded as soon as it is picked) and a Remove button. */
export function SettingsImageField({ field, value, error, help, disabled, onPick, onRemove }: Props) {
  const label = IMAGE_LABELS[field];
  return (
    <TextField
      id={settingInputId(field)}
      label={label}
      type="file"
      accept="image/png,image/jpeg,image/gif,image/webp"
      help={help}
      error={error}
      disabled={disabled}
      aboveInput={
        value && (
          <div className="current-file">
            <img className="current-logo" src={value} alt={`Current ${label.toLowerCase()}`} width={192} height={48} />
            <button type="button" className="btn" onClick={onRemove} disabled={disabled}>
              Remove {label.toLowerCase()}
            </button>
          </div>
        )
      }
      onChange={(event) => {
        onPick(event.target.files?.[0] ?? null);
        event.target.value = '';
      }}
    />
  );
}
