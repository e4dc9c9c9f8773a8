/**
 * The admin panel's calls to /api. The browser is signed in by its HttpOnly session cookie
 * (same-origin requests carry it); no token is ever read or stored here.
 */
export class ApiError extends Error {
  readonly status: number;
  /** The server's human message (else its short error code), or null when it sent none. */
  readonly serverMessage: string | null;
  readonly fields: Record<string, string>;

  constructor(status: number, serverMessage: string | null, fields: Record<string, string> = {}) {
    super(serverMessage ?? `The server answered ${status}.`);
    this.status = status;
    this.serverMessage = serverMessage;
    this.fields = fields;
  }
}

async function readError(response: Response): Promise<ApiError> {
  try {
    const body = (await response.json()) as { error?: unknown; message?: unknown; fields?: unknown };
    const message =
      typeof body.message === 'string' && body.message
        ? body.message
        : typeof body.error === 'string' && body.error
          ? body.error
          : null;
    const fields: Record<string, string> = {};
    if (body.fields && typeof body.fields === 'object') {
      for (const [key, value] of Object.entries(body.fields as Record<string, unknown>))
        if (typeof value === 'string') fields[key] = value;
    }
    return new ApiError(response.status, message, fields);
  } catch {
    return new ApiError(response.status, null);
  }
}

async function send(method: string, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...init.headers },
  });
  if (!response.ok) throw await readError(response);
  return response;
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await send('GET', url, signal ? { signal } : {});
  return (await response.json()) as T;
}

/** A page of a list with the X-Total-Count header the list endpoints send. */
export async function getPage<T>(url: string, signal?: AbortSignal): Promise<{ items: T[]; total: number }> {
  const response = await send('GET', url, signal ? { signal } : {});
  const items = (await response.json()) as T[];
  const header = Number(response.headers.get('X-Total-Count'));
  return { items, total: Number.isFinite(header) && response.headers.has('X-Total-Count') ? header : items.length };
}

export async function sendJson<T>(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<T> {
  const init: RequestInit =
    body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } };
  const response = await send(method, url, init);
  const text = await response.text();
  return (text ? JSON.parse(text) : {}) as T;
}

export async function sendForm<T>(url: string, form: FormData): Promise<T> {
  const response = await send('POST', url, { body: form });
  return (await response.json()) as T;
}

/** POST /api/blogs/upload-image-cloudinary: the stored image's URL. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const { url } = await sendForm<{ url: string }>('/api/blogs/upload-image-cloudinary', form);
  return url;
}

/** POST /api/blogs/upload-pdf-local: the stored PDF's link. */
export async function uploadPdf(file: File): Promise<string> {
  const form = new FormData();
  form.append('pdfFile', file);
  const { link } = await sendForm<{ link: string }>('/api/blogs/upload-pdf-local', form);
  return link;
}

/** The server's message for an error, else the fallback (network failures, unreadable answers). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/** SPEC.md section 8, blog create/update failure: "Error: " and the server's error, else a fixed text. */
export function blogSaveErrorText(error: unknown): string {
  return error instanceof ApiError && error.serverMessage ? `Error: ${error.serverMessage}` : 'An unknown error occurred';
}

export interface Category {
  id: number;
  name: string;
  sequence: number;
}

export interface BlogSummary {
  id: number;
  title: string;
  author: string;
  created_at: string;
  category_name: string | null;
}

export interface Blog extends BlogSummary {
  content: string;
  content_source: string | null;
  category_id: number | null;
  image: string | null;
  video_link: string | null;
  isVideo: string;
  pdf_drive_link: string | null;
  pay_link: string | null;
  form_name: string | null;
  form_link: string | null;
}

export interface AdminComment {
  id: number;
  blog_id: number;
  username: string;
  comment: string;
  created_at: string;
  blog_title: string | null;
}

export interface Slide {
  id: number;
  title: string;
  image_url: string;
  altText: string;
}

export interface LiveAnswer {
  message?: string;
  live_ms?: number;
}
