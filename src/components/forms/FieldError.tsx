/** A field's validation message, tied to its input by id (`<inputId>-error`). */
export function FieldError({ id, message }: { id: string; message: string | undefined | null }) {
  if (!message) return null;
  return (
    <p id={`${id}-error`} className="field-error">
      {message}
    </p>
  );
}

/** The aria-describedby value for an input whose error may be showing. */
export function describedBy(inputId: string, message: string | undefined | null): string | undefined {
  return message ? `${inputId}-error` : undefined;
}
