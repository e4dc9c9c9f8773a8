import type { ErrorBody } from '../shared/api-types.ts';

/*
 * How src/client talks to /api: one fetch wrapper (same-origin cookie, JSON in and out), the
 * error every refused call throws, paged lists, and the messages a screen shows for an error.
 * The calls themselves are in api.ts and its siblings.
 */

export class ApiError extends Error {
  readonly status: number;
  /** The server's human message (else its short error code), or null when it sent none. */
  readonly serverMessage: string | null;
  /** The answer's `message` exactly as sent, or null when it had none. */
  readonly statedMessage: string | null;
  readonly fields: Record<string, string>;
  /** The answer's error code (`second_factor_required`...), or null when it had none. */
  readonly code: string | null;

  constructor(status: number, body: Partial<ErrorBody> | null = null) {
    const stated = typeof body?.message === 'string' && body.message ? body.message : null;
    const code = typeof body?.error === 'string' && body.error ? body.error : null;
    super(stated ?? code ?? `The server answered ${status}.`);
    this.status = status;
    this.statedMessage = stated;
    this.serverMessage = stated ?? code;
    this.code = code;
    this.fields = {};
    if (body?.fields && typeof body.fields === 'object') {
      for (const [key, value] of Object.entries(body.fields as Record<string, unknown>))
        if (typeof value === 'string') this.fields[key] = value;
    }
  }
}

async function readError(response: Response): Promise<ApiError> {
  try {
    const body: unknown = await response.json();
    return new ApiError(
      response.status,
      body && typeof body === 'object' && !Array.isArray(body) ? (body as Partial<ErrorBody>) : null,
    );
  } catch {
    // Not JSON (a proxy's error page, say): the caller falls back to its own message.
    return new ApiError(response.status);
  }
}

export interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal | undefined;
  keepalive?: boolean;
}

export async function call(path: string, { method = 'GET', json, form, signal, keepalive }: Call = {}): Promise<Response> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (json !== undefined) {
    init.body = JSON.stringify(json);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  if (form) init.body = form;
  if (signal) init.signal = signal;
  if (keepalive) init.keepalive = true;
  const response = await fetch(path, init);
  if (!response.ok) throw await readError(response);
  return response;
}

/** The answer's JSON body; an empty body reads as {}. */
export async function callJson<T>(path: string, options: Call = {}): Promise<T> {
  const text = await (await call(path, options)).text();
  return (text ? JSON.parse(text) : {}) as T;
}

export interface Page<T> {
  items: T[];
  /** From X-Total-Count, which the list endpoints send; the page's length when it is missing. */
  total: number;
}

export async function callPage<T>(path: string, signal?: AbortSignal): Promise<Page<T>> {
  const response = await call(path, { signal });
  const items = (await response.json()) as T[];
  const header = response.headers.get('X-Total-Count');
  const total = Number(header);
  return { items, total: header !== null && Number.isFinite(total) ? total : items.length };
}

export const pageQuery = (query: Record<string, string | number | null | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
};

/** The server's message for an error, else the fallback (network failures, unreadable answers). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** The answer's own `message` when it stated one, else the fallback (docs/product.md#messages, auth screens). */
export function statedMessageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.statedMessage !== null && error.statedMessage.trim() !== ''
    ? error.statedMessage
    : fallback;
}

/** docs/product.md#messages, blog create/update failure: "Error: " and the server's error, else a fixed text. */
export function blogSaveErrorText(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? `Error: ${error.serverMessage}` : 'An unknown error occurred';
}
