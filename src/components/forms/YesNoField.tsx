import { FieldError } from './FieldError.tsx';

interface YesNoFieldProps {
  legend: string;
  /** The radio group's name; Yes sends "1", No sends "0". */
  name: string;
  yes: boolean;
  onChange: (yes: boolean) => void;
  /** An id for the Yes radio, so a message or a test can point at the choice. */
  yesId?: string;
  /** Where the field's error shows, as `<errorId>-error`; without it the field has none. */
  errorId?: string;
  error?: string | null | undefined;
}

/** A Yes/No choice as two radio buttons under a legend. */
export function YesNoField({ legend, name, yes, onChange, yesId, errorId, error }: YesNoFieldProps) {
  return (
    <fieldset className="field toggle">
      <legend>{legend}</legend>
      <label>
        <input id={yesId} type="radio" name={name} value="1" checked={yes} onChange={() => onChange(true)} /> Yes
      </label>
      <label>
        <input type="radio" name={name} value="0" checked={!yes} onChange={() => onChange(false)} /> No
      </label>
      {errorId && <FieldError id={errorId} message={error} />}
    </fieldset>
  );
}
