// The carousel, the site's settings, and the About and Contact pages with their revisions.
import type { Generated } from 'kysely';
import type { InfoPageRevisionDto } from '../../../shared/api-types.ts';

export interface CarouselSlidesTable {
  id: Generated<number>;
  title: string;
  image_url: string;
  alt_text: string;
  created_at: string;
  is_demo: Generated<number>;
}

/** One setting per row (migration 0006); a missing row means the built-in default. */
export interface SiteSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export type InfoPageSlug = 'about' | 'contact';

/** About and Contact as the admin last saved them (migration 0006); their history is in info_page_revisions. */
export interface InfoPagesTable {
  slug: InfoPageSlug;
  content: string;
  content_source: string | null;
  updated_at: string;
}

/**
 * What a save of About or Contact did (migration 0007): `update`, `restore`, or `builtin` (the
 * built-in text, kept when the first save replaced it).
 */
export type InfoPageRevisionAction = 'update' | 'restore' | 'builtin';

/**
 * One saved text of About or Contact, who saved it and when (migration 0007). A row is what
 * GET /api/admin/pages/:slug/revisions/:rev answers, with the action narrowed to those a save makes.
 */
export interface InfoPageRevisionsTable extends Omit<InfoPageRevisionDto, 'id' | 'action'> {
  id: Generated<number>;
  action: InfoPageRevisionAction;
}
