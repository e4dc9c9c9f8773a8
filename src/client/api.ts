import type {
  AddedSlide,
  AdminCommentDto,
  BlogListItem,
  BlogStatus,
  PublishingFields,
  BlogWithComments,
  BlocklistAnswer,
  CategoryDto,
  CommentFormToken,
  CommentStatus,
  DeletedAnswer,
  ErrorBody,
  ImageUploadAnswer,
  LoginAnswer,
  MeAnswer,
  PageRefreshStatus,
  HeldComment,
  InfoPageDto,
  ModerationAction,
  ModerationAnswer,
  ModerationCommentDto,
  PdfUploadAnswer,
  PostedComment,
  RegisterAnswer,
  RemovedDemoAnswer,
  SavedBlog,
  SavedInfoPage,
  SavedSettings,
  SettingsAnswer,
  SetupAnswer,
  SavedCategory,
  SlideDto,
} from '../shared/api-types.ts';
import type { BlogFormInput } from '../shared/validation/blog.ts';
import type { CategoryValues } from '../shared/validation/category.ts';
import type { CommentFormInput } from '../shared/validation/comment.ts';
import type { InfoPageInput, InfoPageSlug } from '../shared/validation/info-page.ts';
import type { SettingsInput } from '../shared/validation/settings.ts';

/**
 * The only place the browser calls /api: one function per call, typed with the answers of
 * src/shared/api-types.ts. Requests carry the HttpOnly session cookie (same origin); no token is
 * ever read or stored here. A refused request throws ApiError; a network failure throws what
 * fetch throws.
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

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal | undefined;
  keepalive?: boolean;
}

async function call(path: string, { method = 'GET', json, form, signal, keepalive }: Call = {}): Promise<Response> {
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

async function callPage<T>(path: string, signal?: AbortSignal): Promise<Page<T>> {
  const response = await call(path, { signal });
  const items = (await response.json()) as T[];
  const header = response.headers.get('X-Total-Count');
  const total = Number(header);
  return { items, total: header !== null && Number.isFinite(total) ? total : items.length };
}

const pageQuery = (query: Record<string, string | number | null | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== null && value !== undefined && value !== '') params.set(key, String(value));
  return params.toString();
};

// Blogs

export interface BlogListQuery {
  limit: number;
  offset: number;
  search?: string | undefined;
  category?: number | undefined;
  /** Admins: only this status. */
  status?: BlogStatus | undefined;
}

/** The admin table's list (an admin's session: every status, with `status` and `publish_at`). */
export function listBlogs(query: BlogListQuery, signal?: AbortSignal): Promise<Page<BlogListItem & PublishingFields>> {
  return callPage(`/api/blogs?${pageQuery({ ...query })}`, signal);
}

/** The edit form's article (an admin's session: any status, with `status` and `publish_at`). */
export function getBlog(id: number | string, signal?: AbortSignal): Promise<BlogWithComments & PublishingFields> {
  return callJson(`/api/blogs/${encodeURIComponent(id)}`, { signal });
}

export function createBlog(body: BlogFormInput): Promise<SavedBlog> {
  return callJson('/api/blogs', { method: 'POST', json: body });
}

/** `autosave`: the form's idle save of a draft (a run of them keeps one revision). */
export function updateBlog(id: number | string, body: BlogFormInput, options: { autosave?: boolean } = {}): Promise<SavedBlog> {
  const query = options.autosave ? '?autosave=1' : '';
  return callJson(`/api/blogs/${encodeURIComponent(id)}${query}`, { method: 'PUT', json: body });
}

// Settings, About/Contact, demo content, first-run setup

export function getSettings(signal?: AbortSignal): Promise<SettingsAnswer> {
  return callJson('/api/admin/settings', { signal });
}

export function saveSettings(body: SettingsInput): Promise<SavedSettings> {
  return callJson('/api/admin/settings', { method: 'PUT', json: body });
}

export function removeDemoContent(): Promise<RemovedDemoAnswer> {
  return callJson('/api/admin/demo-content', { method: 'DELETE' });
}

export function getInfoPage(slug: InfoPageSlug, signal?: AbortSignal): Promise<InfoPageDto> {
  return callJson(`/api/admin/pages/${slug}`, { signal });
}

export function saveInfoPage(slug: InfoPageSlug, body: InfoPageInput): Promise<SavedInfoPage> {
  return callJson(`/api/admin/pages/${slug}`, { method: 'PUT', json: body });
}

export function completeSetup(body: {
  token: string;
  username: string;
  email: string;
  password: string;
  site_title: string;
}): Promise<SetupAnswer> {
  return callJson('/api/setup', { method: 'POST', json: body });
}

/** The background refresh's progress since the last change (admin). */
export function getPageRefreshStatus(signal?: AbortSignal): Promise<PageRefreshStatus> {
  return callJson('/api/admin/page-refresh', { signal });
}

export function deleteBlog(id: number): Promise<DeletedAnswer> {
  return callJson(`/api/blogs/${id}`, { method: 'DELETE' });
}

/** Raises the article's view count; keepalive lets it finish if the reader leaves at once. */
export async function recordView(blogId: number | string): Promise<void> {
  await call(`/api/blogs/${encodeURIComponent(blogId)}/click`, { method: 'PUT', keepalive: true });
}

// Comments

/** 201 answers the comment; 202 says a spam rule held it for moderation (`status: "pending"`). */
export function postComment(blogId: number, body: CommentFormInput): Promise<PostedComment | HeldComment> {
  return callJson(`/api/blogs/${blogId}/comment`, { method: 'POST', json: body });
}

export function isHeldComment(answer: PostedComment | HeldComment): answer is HeldComment {
  return (answer as HeldComment).status === 'pending';
}

/** The comment form's timing token, asked for when the form loads. */
export function getCommentFormToken(signal?: AbortSignal): Promise<CommentFormToken> {
  return callJson('/api/comment-token', { signal });
}

export interface ModerationPage extends Page<ModerationCommentDto> {
  /** Comments waiting under Pending (X-Pending-Count), for the side menu. */
  pending: number | null;
}

export async function listCommentsByStatus(
  status: CommentStatus,
  query: { limit: number; offset: number },
  signal?: AbortSignal,
): Promise<ModerationPage> {
  const response = await call(`/api/blogs/comment?${pageQuery({ status, ...query })}`, { signal });
  const items = (await response.json()) as ModerationCommentDto[];
  const count = (name: string) => {
    const header = response.headers.get(name);
    const value = Number(header);
    return header !== null && Number.isFinite(value) ? value : null;
  };
  return { items, total: count('X-Total-Count') ?? items.length, pending: count('X-Pending-Count') };
}

export function moderateComments(ids: number[], action: ModerationAction): Promise<ModerationAnswer> {
  return callJson('/api/blogs/comment/moderate', { method: 'POST', json: { ids, action } });
}

export function getCommentBlocklist(signal?: AbortSignal): Promise<BlocklistAnswer> {
  return callJson('/api/admin/comment-blocklist', { signal });
}

export function saveCommentBlocklist(words: string[]): Promise<BlocklistAnswer> {
  return callJson('/api/admin/comment-blocklist', { method: 'PUT', json: { words } });
}

export function listComments(query: { limit: number; offset: number }, signal?: AbortSignal): Promise<Page<AdminCommentDto>> {
  return callPage(`/api/blogs/comment?${pageQuery(query)}`, signal);
}

export function deleteComment(id: number): Promise<DeletedAnswer> {
  return callJson(`/api/blogs/comment/${id}`, { method: 'DELETE' });
}

// Uploads

export function uploadImage(file: File): Promise<ImageUploadAnswer> {
  const form = new FormData();
  form.append('image', file);
  return callJson('/api/blogs/upload-image-cloudinary', { method: 'POST', form });
}

export function uploadPdf(file: File): Promise<PdfUploadAnswer> {
  const form = new FormData();
  form.append('pdfFile', file);
  return callJson('/api/blogs/upload-pdf-local', { method: 'POST', form });
}

// Categories

export function listCategories(signal?: AbortSignal): Promise<CategoryDto[]> {
  return callJson('/api/categories', { signal });
}

export function createCategory(values: CategoryValues): Promise<SavedCategory> {
  return callJson('/api/categories', { method: 'POST', json: values });
}

export function updateCategory(id: number, values: CategoryValues): Promise<SavedCategory> {
  return callJson(`/api/categories/${id}`, { method: 'PUT', json: values });
}

export function deleteCategory(id: number): Promise<DeletedAnswer> {
  return callJson(`/api/categories/${id}`, { method: 'DELETE' });
}

// Carousel

export function listSlides(signal?: AbortSignal): Promise<SlideDto[]> {
  return callJson('/api/carousel', { signal });
}

export function addSlide(title: string, image: File): Promise<AddedSlide> {
  const form = new FormData();
  form.append('title', title);
  form.append('image', image);
  return callJson('/api/carousel', { method: 'POST', form });
}

export function deleteSlide(id: number): Promise<DeletedAnswer> {
  return callJson(`/api/carousel/${id}`, { method: 'DELETE' });
}

// Accounts

export async function login(credentials: { email: string; password: string; code?: string }): Promise<LoginAnswer> {
  const answer = await callJson<Partial<LoginAnswer>>('/api/users/login', { method: 'POST', json: credentials });
  // Without a username there is nothing to show as signed in: treat it as a failed login.
  if (typeof answer.username !== 'string') throw new ApiError(200);
  return { token: answer.token ?? '', is_admin: answer.is_admin === true, username: answer.username };
}

export function register(account: { username: string; email: string; password: string }): Promise<RegisterAnswer> {
  return callJson('/api/users/register', { method: 'POST', json: account });
}

export async function logout(): Promise<void> {
  await call('/api/users/logout', { method: 'POST' });
}

export function me(): Promise<MeAnswer> {
  return callJson('/api/users/me');
}

// Messages

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
