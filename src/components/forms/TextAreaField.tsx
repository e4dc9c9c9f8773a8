import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldError } from './FieldError.tsx';

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  id: string;
  label: ReactNode;
  error?: string | null | undefined;
  help?: ReactNode;
}

/** A label, its textarea, an optional hint and its error: TextField's layout for longer text (admin forms). */
export function TextAreaField({ id, label, error, help, ...textarea }: TextAreaFieldProps) {
  const helpId = help ? `${id}-help` : undefined;
  const describedBy = [helpId, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...textarea} />
      {help && (
        <p id={helpId} className="field-help">
          {help}
        </p>
      )}
      <FieldError id={id} message={error} />
    </div>
  );
}
