// Categories, articles, their revisions and daily views.
import type { Generated } from 'kysely';
import type { BlogStatus, RevisionDto } from '../../../shared/api-types.ts';

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  sequence: Generated<number>;
  created_at: string;
  is_demo: Generated<number>;
}

export interface BlogsTable {
  id: Generated<number>;
  title: string;
  author: string;
  content: string;
  content_source: string | null;
  category_id: number | null;
  image: string | null;
  video_link: string | null;
  is_video: Generated<number>;
  pdf_drive_link: string | null;
  pay_link: string | null;
  form_name: string | null;
  form_link: string | null;
  created_at: string;
  updated_at: string;
  clicks: Generated<number>;
  /** Demo content, removable in one step (migration 0006). */
  is_demo: Generated<number>;
  /** Only published articles, and scheduled ones whose publish_at has come, reach readers (migration 0005). */
  status: Generated<BlogStatus>;
  /** When a scheduled article goes live (ISO 8601 UTC); null otherwise. */
  publish_at: string | null;
}

export type { BlogStatus };

/**
 * Every save of an article: all its fields, who saved it and when (migration 0005). A row is what
 * GET /api/blogs/:id/revisions/:rev answers, so its columns are that answer's fields.
 */
export interface BlogRevisionsTable extends Omit<RevisionDto, 'id'> {
  id: Generated<number>;
}

/** Views per article per UTC day, for the dashboard (migration 0005). */
export interface BlogDailyViewsTable {
  blog_id: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  views: number;
}
