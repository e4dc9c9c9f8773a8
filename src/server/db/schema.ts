import type { Selectable } from 'kysely';
import type {
  AccountTokensTable,
  MailQueueTable,
  OwnerSetupTable,
  RecoveryCodesTable,
  SessionsTable,
  TotpSecretsTable,
  UsersTable,
} from './schema/accounts.ts';
import type { BlogDailyViewsTable, BlogRevisionsTable, BlogsTable, CategoriesTable } from './schema/articles.ts';
import type { CommentBlocklistTable, CommentSettingsTable, CommentsTable } from './schema/comments.ts';
import type { ImportSourcesTable, RedirectsTable } from './schema/imports.ts';
import type { ReadingProgressTable, SavedArticlesTable } from './schema/library.ts';
import type { BlogsCjkTable, BlogsFtsTable, PdfTextsTable, SearchIndexVersionTable } from './schema/search.ts';
import type { CarouselSlidesTable, InfoPageRevisionsTable, InfoPagesTable, SiteSettingsTable } from './schema/site-pages.ts';

/**
 * Table types for kysely, one module a part of the site in schema/. Dates are ISO-8601 strings in
 * UTC; booleans are 0/1 integers.
 */
export type * from './schema/accounts.ts';
export type * from './schema/articles.ts';
export type * from './schema/comments.ts';
export type * from './schema/site-pages.ts';
export type * from './schema/search.ts';
export type * from './schema/imports.ts';
export type * from './schema/library.ts';

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  categories: CategoriesTable;
  blogs: BlogsTable;
  blog_revisions: BlogRevisionsTable;
  blog_daily_views: BlogDailyViewsTable;
  comments: CommentsTable;
  comment_blocklist: CommentBlocklistTable;
  comment_settings: CommentSettingsTable;
  carousel_slides: CarouselSlidesTable;
  blogs_fts: BlogsFtsTable;
  blogs_cjk: BlogsCjkTable;
  pdf_texts: PdfTextsTable;
  search_index_version: SearchIndexVersionTable;
  site_settings: SiteSettingsTable;
  info_pages: InfoPagesTable;
  info_page_revisions: InfoPageRevisionsTable;
  owner_setup: OwnerSetupTable;
  import_sources: ImportSourcesTable;
  redirects: RedirectsTable;
  mail_queue: MailQueueTable;
  account_tokens: AccountTokensTable;
  totp_secrets: TotpSecretsTable;
  recovery_codes: RecoveryCodesTable;
  saved_articles: SavedArticlesTable;
  reading_progress: ReadingProgressTable;
}

export type UserRow = Selectable<UsersTable>;
export type CategoryRow = Selectable<CategoriesTable>;
