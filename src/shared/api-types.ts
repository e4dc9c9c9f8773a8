/**
 * What every /api call answers (docs/product.md#the-api), shared by the server's DTO mapping, which
 * declares it returns these, and src/client/api.ts, which reads them. Types only: nothing here
 * reaches a bundle.
 */
import type { SiteSettingsValues } from './validation/settings.ts';

/** Every error answer: a short code, a sentence for people, and the bad fields of a 400. */
export interface ErrorBody {
  error: string;
  message: string;
  fields?: Record<string, string>;
}

/** How long a change took to reach the stored public pages, in milliseconds (docs/product.md#speed-and-freshness). */
export interface LiveTime {
  live_ms: number;
  /**
   * Other pages the change left stale, queued for the background refresh; `hot_elsewhere`: hot
   * pages rendered by another serving process (with several).
   */
  refresh?: { queued: number; hot_elsewhere?: number; cdn?: CdnPurgeReport };
}

/** A save's purge of the shared caches in front (Varnish): only present when PURGE_VARNISH is set. */
export interface CdnPurgeReport {
  /** Caches that dropped the change's hot pages before the save answered. */
  purged: number;
  /** Caches that did not confirm the purge within PURGE_WAIT_MS: it is pending, retried in the background. */
  failed: Array<{ cache: string; error: string }>;
}

/** The shared caches' purges since the server started (GET /api/admin/page-refresh). */
export interface CdnPurgeStatus {
  caches: number;
  sent: number;
  failed: number;
  /** Purges not confirmed yet (a try under way past the save's wait, or waiting for its retry). */
  pending: number;
  /** Purges that failed every retry since the server started. */
  givenUp: number;
  lastFailure: { cache: string; error: string; at: string } | null;
}

/** GET /api/admin/page-refresh (admin): the background refresh's progress since the last change. */
export interface PageRefreshStatus {
  queued: number;
  refreshedSinceLastChange: number;
  seconds: number;
  /** Present when PURGE_VARNISH names caches to purge. */
  cdn?: CdnPurgeStatus;
  /** Pages the render workers rendered since the server started (absent where nothing is stored). */
  renderedByWorkers?: number;
}

/** DELETE answers: a confirmation sentence and the live time. */
export interface DeletedAnswer extends LiveTime {
  message: string;
}

/** A comment as an article shows it. */
export interface CommentDto {
  id: number;
  username: string;
  comment: string;
  created_at: string;
}

/** POST /api/blogs/:id/comment (201). */
export type PostedComment = CommentDto & LiveTime;

/** POST /api/blogs/:id/comment (202): a spam rule held the comment for an admin to check. */
export interface HeldComment {
  status: 'pending';
  message: string;
}

/** GET /api/comment-token: the signed time the comment form was handed out (never cached). */
export interface CommentFormToken {
  token: string;
  /** A post sooner than this after the token was issued is held. */
  min_seconds: number;
  /** A post with a token older than this is held: the form asks for a new one first. */
  max_seconds: number;
}

export type CommentStatus = 'approved' | 'pending' | 'spam';

/** GET /api/blogs/comment?status= (admin): one moderation tab's rows. */
export interface ModerationCommentDto extends AdminCommentDto {
  status: CommentStatus;
  /** Why a rule held it, in words; null for comments no rule held. */
  held_reason: string | null;
}

export type ModerationAction = 'approve' | 'spam' | 'delete';

/** POST /api/blogs/comment/moderate (admin). */
export interface ModerationAnswer extends LiveTime {
  message: string;
  /** How many comments the action changed. */
  changed: number;
  /** Comments still waiting under Pending, for the side menu. */
  pending: number;
}

/** GET and PUT /api/admin/comment-blocklist (admin). */
export interface BlocklistAnswer {
  words: string[];
  message?: string;
}

/** GET /api/blogs/comment (admin): every comment with its article's title, newest first. */
export interface AdminCommentDto extends CommentDto {
  blog_id: number;
  blog_title: string | null;
}

/** A blog with every entity field of docs/product.md#what-is-stored, `_id` and `isVideo` ("1"/"0") included. */
// Spelled out, not derived from the table type: this is the browser contract, which keeps its own names.
export interface BlogDto {
  id: number;
  _id: number;
  title: string;
  author: string;
  content: string;
  content_source: string | null;
  category_id: number | null;
  category_name: string | null;
  image: string | null;
  video_link: string | null;
  isVideo: '0' | '1';
  pdf_drive_link: string | null;
  pay_link: string | null;
  form_name: string | null;
  form_link: string | null;
  created_at: string;
  updated_at: string;
  clicks: number;
}

export type BlogStatus = 'published' | 'draft' | 'scheduled';

/** What admins' answers add to a blog (readers' answers keep the fields of docs/product.md#what-is-stored only). */
export interface PublishingFields {
  status: BlogStatus;
  /** When a scheduled article goes live (ISO 8601 UTC); null when not scheduled. */
  publish_at: string | null;
}

/** A blog as an admin gets it: GET /api/blogs and /api/blogs/:id with an admin's session, and every write's answer. */
export type AdminBlogDto = BlogDto & PublishingFields;

/** One row of GET /api/blogs (X-Total-Count gives the number of matches). */
export type BlogListItem = BlogDto;

/** GET /api/blogs/:id: the blog with its comments, oldest first. */
export interface BlogWithComments extends BlogDto {
  comments: CommentDto[];
}

/** POST /api/blogs (201) and PUT /api/blogs/:id: the blog as GET shows it to an admin, plus the live time. */
export type SavedBlog = AdminBlogDto & LiveTime;

/** GET /api/blogs/top-viewed. */
export interface TopViewedItem {
  id: number;
  title: string;
  created_at: string;
  clicks: number;
}

/** GET /api/blogs/recent. */
export interface RecentItem {
  id: number;
  title: string;
  image: string | null;
  category_name: string | null;
}

/** GET /api/categories: ordered by sequence, then id. */
export interface CategoryDto {
  id: number;
  name: string;
  sequence: number;
}

/** POST /api/categories (201) and PUT /api/categories/:id. */
export type SavedCategory = CategoryDto & LiveTime;

/** GET /api/carousel. */
export interface SlideDto {
  id: number;
  title: string;
  image_url: string;
  altText: string;
}

/** POST /api/carousel (201). */
export interface AddedSlide extends LiveTime {
  message: string;
  slide: SlideDto;
}

/** POST /api/blogs/upload-image-cloudinary (201): the widest stored variant and its srcset. */
export interface ImageUploadAnswer {
  url: string;
  srcset: string;
  width: number;
  height: number;
}

/** POST /api/blogs/upload-pdf-local (201). */
export interface PdfUploadAnswer {
  link: string;
}

/** The signed-in user as GET /api/users/me shows it. */
export interface UserDto {
  id: number;
  username: string;
  email: string;
  is_admin: boolean;
}

/** GET /api/users/me. */
export interface MeAnswer {
  user: UserDto | null;
}

/** POST /api/users/login; the session itself travels in the HttpOnly cookie. */
export interface LoginAnswer {
  token: string;
  is_admin: boolean;
  username: string;
}

/** POST /api/users/register (201). */
export interface RegisterAnswer {
  message: string;
  user: Omit<UserDto, 'is_admin'>;
}

/** GET /api/admin/settings (admin); PUT answers the same plus the live time. */
export interface SettingsAnswer {
  settings: SiteSettingsValues;
  /** The demo content still on the site (the removal button shows only while there is some). */
  demo: DemoCountsDto;
}

export interface SavedSettings extends SettingsAnswer, LiveTime {
  message: string;
}

export interface DemoCountsDto {
  blogs: number;
  comments: number;
  slides: number;
  categories: number;
}

/** DELETE /api/admin/demo-content (admin). */
export interface RemovedDemoAnswer extends LiveTime {
  message: string;
  removed: DemoCountsDto;
  /** Demo categories kept because an article of the publisher's is in them. */
  keptCategories: number;
}

/** GET /api/admin/pages/:slug (admin): About or Contact as the editor loads it. */
export interface InfoPageDto {
  slug: 'about' | 'contact';
  title: string;
  content: string;
  content_source: string | null;
  updated_at: string | null;
}

export interface SavedInfoPage extends InfoPageDto, LiveTime {
  message: string;
}

/** GET /api/admin/pages/:slug/revisions (admin): one saved text of About or Contact, newest first, without the text. */
export interface InfoPageRevisionSummaryDto {
  id: number;
  slug: 'about' | 'contact';
  username: string;
  /** `update`, `restore`, or `builtin` (the built-in text the first save replaced). */
  action: string;
  created_at: string;
}

/** GET /api/admin/pages/:slug/revisions/:rev (admin): that saved text. */
export interface InfoPageRevisionDto extends InfoPageRevisionSummaryDto {
  content: string;
  content_source: string | null;
  user_id: number | null;
}

/** POST /api/setup: the owner's account, signed in. */
export interface SetupAnswer {
  username: string;
  is_admin: true;
  message: string;
}

/** GET /api/blogs/:id/revisions (admin): one saved state of an article, newest first, without its text. */
export interface RevisionSummaryDto {
  id: number;
  blog_id: number;
  title: string;
  status: BlogStatus;
  publish_at: string | null;
  username: string;
  /** `create`, `update`, `autosave`, `restore` or `publish` (the scheduler). */
  action: string;
  created_at: string;
}

/** GET /api/blogs/:id/revisions/:rev (admin): every field of that saved state. */
export interface RevisionDto extends RevisionSummaryDto {
  content: string;
  content_source: string | null;
  category_id: number | null;
  image: string | null;
  video_link: string | null;
  is_video: number;
  pdf_drive_link: string | null;
  pay_link: string | null;
  form_name: string | null;
  form_link: string | null;
  user_id: number | null;
}

/** A saved article in a reader's library (GET /api/library, PUT /api/library/saved/:id). */
export interface SavedArticleDto {
  id: number;
  title: string;
  category_name: string | null;
  image: string | null;
  /** The attached PDF (`pdf_drive_link`), or null. */
  pdf_link: string | null;
  updated_at: string;
  saved_at: string;
}

/** An article the reader read lately and where they stopped: `position` 0 to 1 of its length. */
export interface RecentReadDto {
  id: number;
  title: string;
  position: number;
  read_at: string;
}

/** One of the reader's own comments, in any status (held ones are only ever shown to them). */
export interface OwnCommentDto {
  id: number;
  blog_id: number;
  blog_title: string;
  comment: string;
  status: 'approved' | 'pending' | 'spam';
  created_at: string;
}

/** GET /api/library: the signed-in reader's own library. */
export interface LibraryAnswer {
  saved: SavedArticleDto[];
  recent: RecentReadDto[];
  comments: OwnCommentDto[];
}

/** POST /api/library/saved: the library after merging a device's saves; `skipped`: ids no reader can open. */
export interface LibrarySyncAnswer {
  saved: SavedArticleDto[];
  skipped: number[];
}
