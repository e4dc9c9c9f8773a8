import { FieldError } from '../forms/FieldError.tsx';
import { suggestedBrandColor } from '../../shared/validation/settings.ts';
import { parseHexColor } from '../../shared/contrast.ts';

interface Props {
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange: (value: string) => void;
}

/**
 * The brand colour: typed as hex or picked. A colour that fails WCAG AA is refused with the
 * ratio and a darker shade that passes, offered as a button.
 */
export function BrandColorField({ value, error, disabled, onChange }: Props) {
  const id = 'settings-brand-color';
  const suggestion = error ? suggestedBrandColor(value) : null;
  const valid = parseHexColor(value) !== null;
  const describedBy = ['settings-brand-color-help', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field brand-color-field">
      <label htmlFor={id}>Brand colour</label>
      <div className="brand-color-inputs">
        <input
          id={id}
          type="text"
          inputMode="text"
          spellCheck={false}
          autoComplete="off"
          value={value}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
        <input
          id="settings-brand-color-picker"
          type="color"
          aria-label="Pick the brand colour"
          value={valid ? value : '#1d4ed8'}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
        />
        <span className="brand-color-sample" style={valid ? { background: value } : undefined} aria-hidden="true">
          Aa
        </span>
      </div>
      <p id="settings-brand-color-help" className="field-help">
        Buttons and links use it, with white text on it: it must reach a contrast of 4.5:1 (WCAG AA).
      </p>
      <FieldError id={id} message={error} />
      {suggestion && (
        <button type="button" className="btn" onClick={() => onChange(suggestion)} disabled={disabled}>
          Use {suggestion} instead
        </button>
      )}
    </div>
  );
}
