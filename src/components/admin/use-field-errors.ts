import { useState } from 'react';
import { ApiError } from '../../client/api.ts';
import { hasErrors, type FieldErrors } from '../../shared/validation/common.ts';

/**
 * The field messages of one form: shown beside their inputs, the first one focused. `inputs`
 * lists each field key with its input's id, in form order.
 */
export function useFieldErrors(inputs: Array<[field: string, inputId: string]>) {
  const [errors, setErrors] = useState<FieldErrors>({});

  /** Shows the messages; true when there were any (the form then does not send). */
  const showErrors = (found: FieldErrors): boolean => {
    setErrors(found);
    if (!hasErrors(found)) return false;
    const first = inputs.find(([field]) => found[field]);
    if (first) document.getElementById(first[1])?.focus();
    return true;
  };

  /** Typing in a field takes its message away. */
  const clearError = (field: string) =>
    setErrors((previous) => {
      if (!(field in previous)) return previous;
      const next = { ...previous };
      delete next[field];
      return next;
    });

  return { errors, setErrors, showErrors, clearError };
}

/** The field messages of a refused request (the server names the bad fields of a 400), if any. */
export function serverFieldErrors(error: unknown, status?: number): FieldErrors | null {
  if (!(error instanceof ApiError) || (status !== undefined && error.status !== status)) return null;
  return hasErrors(error.fields) ? error.fields : null;
}
