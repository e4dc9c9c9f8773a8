import { useId, useState, type ReactNode } from 'react';
import { useHydrated } from '../islands/use-hydrated.ts';
import { TextField, type TextFieldProps } from '../forms/TextField.tsx';
import MessageBanner from './MessageBanner.tsx';
import { useAuthSubmit, type AuthSuccess } from './use-auth-submit.ts';

/** One input of an auth form: its name is also the key of its value and the end of its id. */
export interface AuthField<K extends string>
  extends Omit<TextFieldProps, 'id' | 'name' | 'value' | 'onChange' | 'variant' | 'required'> {
  name: K;
}

interface Props<K extends string, T> {
  title: string;
  fields: readonly AuthField<K>[];
  /** Sends the entered values; an ApiError (or a network failure) means they were refused. */
  send: (values: Record<K, string>) => Promise<T>;
  onSuccess: (answer: T) => AuthSuccess;
  /** The screen's own message when the server states none. */
  fallback: string;
  submitLabel: string;
  /** Shown between the fields and the submit button; gets the form's id prefix for its own ids. */
  aside?: (id: string) => ReactNode;
  /** The line under the button that leads to the other auth screen. */
  switchLine: ReactNode;
}

/** The login and register screens: a title, the outcome banner, required text fields, the submit button. */
export function AuthForm<K extends string, T>({
  title,
  fields,
  send,
  onSuccess,
  fallback,
  submitLabel,
  aside,
  switchLine,
}: Props<K, T>) {
  const id = useId();
  const hydrated = useHydrated();
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((field) => [field.name, ''])) as Record<K, string>);
  const { busy, banner, closeBanner, onSubmit } = useAuthSubmit({ send: () => send(values), onSuccess, fallback });

  return (
    <form className="auth-form" method="post" onSubmit={onSubmit}>
      <h1>{title}</h1>
      <div>
        {banner && (
          <MessageBanner
            type={banner.type}
            message={banner.message}
            {...(banner.type === 'error' ? { onClose: closeBanner } : {})}
          />
        )}
      </div>
      {fields.map((field) => (
        <TextField
          key={field.name}
          {...field}
          variant="auth"
          id={`${id}-${field.name}`}
          required
          value={values[field.name] ?? ''}
          onChange={(e) => setValues((current) => ({ ...current, [field.name]: e.target.value }))}
        />
      ))}
      {aside?.(id)}
      <button type="submit" className="button auth-submit" disabled={!hydrated || busy} aria-busy={busy}>
        {submitLabel}
      </button>
      <p className="auth-switch">{switchLine}</p>
    </form>
  );
}
