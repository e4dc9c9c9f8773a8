import { useSyncExternalStore } from 'react';

/** Browser-side helpers of the login, register and logout screens. */

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown> | null;
}

/** POSTs JSON with the session cookie; a network failure answers status 0. */
export async function postJson(url: string, data: unknown): Promise<JsonAnswer> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(data),
    });
    const text = await response.text();
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = text ? JSON.parse(text) : null;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      // Not JSON (a proxy's error page, say): the caller falls back to its own message.
    }
    return { status: response.status, body };
  } catch (error) {
    console.error(`POST ${url} failed`, error);
    return { status: 0, body: null };
  }
}

/** The server's `message`, else the screen's own fallback (SPEC.md section 8). */
export function messageOf(answer: JsonAnswer, fallback: string): string {
  const message = answer.body?.message;
  return typeof message === 'string' && message.trim() !== '' ? message : fallback;
}

const subscribe = () => () => {};

/**
 * False on the server and during hydration. Forms keep their submit button disabled until then,
 * so a click before the island runs cannot send the fields as a plain GET form (a password in the URL).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
