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
import { ApiError, call, callJson, callPage, pageQuery, type Page } from './http.ts';

/**
 * The only place the browser calls /api: one function per call, typed with the answers of
 * src/shared/api-types.ts. Requests carry the HttpOnly session cookie (same origin); no token is
 * ever read or stored here. A refused request throws ApiError; a network failure throws what
 * fetch throws.
 */

// The wrapper and the error messages, for the screens that import them from here.
export { ApiError, blogSaveErrorText, callJson, messageOf, statedMessageOf, type Page } from './http.ts';

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
