import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { ApiError, statedMessageOf } from '../../client/api.ts';

export interface Banner {
  type: 'success' | 'error';
  message: string;
}

/** Where a successful submit leads, after its message has been shown for a moment; without `redirectTo` the form stays. */
export interface AuthSuccess {
  message: string;
  redirectTo?: string;
  delayMs?: number;
}

interface Options<T> {
  /** Sends the form; an ApiError (or a network failure) means it was refused. */
  send: () => Promise<T>;
  /** What to show and where to go once the server accepted the form. */
  onSuccess: (answer: T) => AuthSuccess;
  /** The screen's own message when the server states none (docs/product.md#messages). */
  fallback: string;
}

/**
 * The submit of the login and register forms: busy while sending, a banner with the outcome,
 * and on success a delayed redirect. The button stays busy until the redirect so the form
 * cannot be sent twice.
 */
export function useAuthSubmit<T>({ send, onSuccess, fallback }: Options<T>) {
  const [busy, setBusy] = useState(false);
  const [banner, setBanner] = useState<Banner | null>(null);
  const redirect = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirect.current), []);

  async function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setBanner(null);
    try {
      const success = onSuccess(await send());
      setBanner({ type: 'success', message: success.message });
      const to = success.redirectTo;
      if (to === undefined) setBusy(false);
      else redirect.current = window.setTimeout(() => window.location.assign(to), success.delayMs ?? 0);
    } catch (error) {
      if (!(error instanceof ApiError)) console.error('The request failed', error);
      setBusy(false);
      setBanner({ type: 'error', message: statedMessageOf(error, fallback) });
    }
  }

  return { busy, banner, closeBanner: () => setBanner(null), onSubmit };
}
