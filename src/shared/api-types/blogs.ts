// Articles as readers and admins get them, the lists that name them, and their revisions.
import type { LiveTime } from './answers.ts';
import type { CommentDto } from './comments.ts';

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
