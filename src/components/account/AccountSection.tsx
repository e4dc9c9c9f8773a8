import { useId, useState, type ReactNode, type SubmitEvent } from 'react';
import { ApiError, statedMessageOf } from '../../client/api.ts';
import { TextField, type TextFieldProps } from '../forms/TextField.tsx';
import MessageBanner from '../auth/MessageBanner.tsx';

/** One input of an account form; its name is the key of its value in what is sent. */
export interface AccountField<K extends string> extends Omit<TextFieldProps, 'id' | 'name' | 'value' | 'onChange' | 'variant'> {
  name: K;
}

interface Props<K extends string> {
  title: string;
  intro?: ReactNode;
  fields: readonly AccountField<K>[];
  submitLabel: string;
  /** Sends the values; its answer's message is shown. A refusal shows the server's message and marks its fields. */
  send: (values: Record<K, string>) => Promise<{ message: string }>;
  fallback: string;
  /** After a success (the fields are emptied first). */
  onDone?: () => void;
  danger?: boolean;
}

/** A section of `/account`: a heading, a short form, the outcome banner, errors beside their fields. */
export function AccountSection<K extends string>({
  title,
  intro,
  fields,
  submitLabel,
  send,
  fallback,
  onDone,
  danger,
}: Props<K>) {
  const id = useId();
  const empty = () => Object.fromEntries(fields.map((field) => [field.name, ''])) as Record<K, string>;
  const [values, setValues] = useState(empty);
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState<{ type: 'success' | 'error'; message: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setBanner(null);
    setErrors({});
    try {
      const answer = await send(values);
      setValues(empty());
      setBanner({ type: 'success', message: answer.message });
      onDone?.();
    } catch (error) {
      if (!(error instanceof ApiError)) console.error('The request failed', error);
      setErrors(error instanceof ApiError ? error.fields : {});
      setBanner({ type: 'error', message: statedMessageOf(error, fallback) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="account-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {intro}
      <form method="post" onSubmit={onSubmit} aria-busy={busy}>
        {banner && <MessageBanner type={banner.type} message={banner.message} onClose={() => setBanner(null)} />}
        {fields.map((field) => (
          <TextField
            key={field.name}
            {...field}
            variant="auth"
            id={`${id}-${field.name}`}
            required
            error={errors[field.name]}
            value={values[field.name]}
            onChange={(e) => setValues((current) => ({ ...current, [field.name]: e.target.value }))}
          />
        ))}
        <button type="submit" className={danger ? 'button account-danger' : 'button'} disabled={busy} aria-busy={busy}>
          {submitLabel}
        </button>
      </form>
    </section>
  );
}
