import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FieldError } from './FieldError.tsx';

type Variant = 'admin' | 'auth';

const LOOK: Record<Variant, { wrapper: string; help: string; helpSuffix: string }> = {
  admin: { wrapper: 'field', help: 'field-help', helpSuffix: 'help' },
  auth: { wrapper: 'form-field', help: 'form-hint', helpSuffix: 'hint' },
};

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: ReactNode;
  /** The field's validation message; ties itself to the input as `<id>-error`. */
  error?: string | null | undefined;
  /** A standing hint under the input, tied to it as `<id>-help` (admin) or `<id>-hint` (auth). */
  help?: ReactNode;
  /** 'admin' (the panel's forms) or 'auth' (login and register): their own class names. */
  variant?: Variant;
  /** A table cell instead of a div, for a row edited in place; its label is then only for screen readers. */
  inCell?: boolean;
  inputRef?: Ref<HTMLInputElement>;
  /** Shown between the label and the input (the current file of an upload field). */
  aboveInput?: ReactNode;
}

/** A label, its input, an optional hint and the field's error: the one text field of the admin and auth forms. */
export function TextField({
  id,
  label,
  error,
  help,
  variant = 'admin',
  inCell = false,
  inputRef,
  aboveInput,
  ...input
}: TextFieldProps) {
  const look = LOOK[variant];
  const helpId = help ? `${id}-${look.helpSuffix}` : undefined;
  const describedBy = [helpId, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  const HelpTag = variant === 'auth' ? 'small' : 'p';
  const content = (
    <>
      <label htmlFor={id} className={inCell ? 'visually-hidden' : undefined}>
        {label}
      </label>
      {aboveInput}
      <input id={id} ref={inputRef} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      {help && (
        <HelpTag id={helpId} className={look.help}>
          {help}
        </HelpTag>
      )}
      <FieldError id={id} message={error} />
    </>
  );
  return inCell ? <td>{content}</td> : <div className={look.wrapper}>{content}</div>;
}
