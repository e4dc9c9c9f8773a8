// Categories, carousel slides, uploads, settings, the demo content, and the About and Contact pages.
import type { SiteSettingsValues } from '../validation/settings.ts';
import type { LiveTime } from './answers.ts';

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
