import type { Generated, Selectable } from 'kysely';

/** Table types for kysely. Dates are ISO-8601 strings in UTC; booleans are 0/1 integers. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  is_admin: Generated<number>;
  created_at: string;
  /** 1 until a reader who signed up under the email-verification setting opens the mailed link. */
  email_unconfirmed: Generated<number>;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  secret_hash: Buffer;
  created_at: number;
  last_verified_at: number;
  user_agent: string | null;
}

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

export type BlogStatus = 'published' | 'draft' | 'scheduled';

/** Every save of an article: all its fields, who saved it and when (migration 0005). */
export interface BlogRevisionsTable {
  id: Generated<number>;
  blog_id: number;
  title: string;
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
  status: BlogStatus;
  publish_at: string | null;
  user_id: number | null;
  username: string;
  /** What made it: `create`, `update`, `autosave`, `restore`, `publish` (the scheduler). */
  action: string;
  created_at: string;
}

/** Views per article per UTC day, for the dashboard (migration 0005). */
export interface BlogDailyViewsTable {
  blog_id: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
  views: number;
}

export interface CommentsTable {
  id: Generated<number>;
  blog_id: number;
  username: string;
  comment: string;
  contact: string | null;
  created_at: string;
  /** Only approved comments reach readers (migration 0004). */
  status: Generated<CommentStatus>;
  held_reason: string | null;
  text_key: string | null;
  /** The signed-in reader who wrote it; null when written signed out (migration 0013). */
  user_id: number | null;
}

export type CommentStatus = 'approved' | 'pending' | 'spam';

export interface CommentBlocklistTable {
  word: string;
  created_at: string;
}

export interface CommentSettingsTable {
  key: string;
  value: string;
}

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

/** One saved text of About or Contact, who saved it and when (migration 0007). */
export interface InfoPageRevisionsTable {
  id: Generated<number>;
  slug: InfoPageSlug;
  content: string;
  content_source: string | null;
  user_id: number | null;
  username: string;
  action: InfoPageRevisionAction;
  created_at: string;
}

/** The first-run setup token: one row at most, gone once the owner exists. */
export interface OwnerSetupTable {
  id: number;
  token: string;
  created_at: string;
}

export interface BlogsFtsTable {
  rowid: number;
  title: string;
  body: string;
  /** The attached PDF's text (migration 0003). */
  pdf: string | null;
}

/** The trigram index over text in scripts written without spaces (migration 0003). */
export type BlogsCjkTable = BlogsFtsTable;

/** One row: the word index's version, bumped with every write to it (migration 0010). */
export interface SearchIndexVersionTable {
  id: number;
  version: number;
}

export interface PdfTextsTable {
  path: string;
  text: string;
  pages: number;
  status: 'ok' | 'failed';
  extracted_at: string;
}

/** What an item of an imported site became here (migration 0012): the key of idempotent imports. */
export interface ImportSourcesTable {
  /** The site it came from, e.g. `wxr:https://example.org`. */
  source: string;
  /** `post`, `comment`, `upload`. */
  kind: string;
  /** The item's id in that site (a WordPress guid, a Ghost id, a file's path). */
  source_id: string;
  target_id: number | null;
  /** An upload's address here. */
  target_url: string | null;
  /** Of what was imported: the same hash means nothing to update. */
  hash: string;
  imported_at: string;
}

/** An old site's address that answers with a 301 to an article (migration 0012). */
export interface RedirectsTable {
  /** Path and query as the old site spelled it, normalised (redirects.ts `normaliseOldPath`). */
  path: string;
  blog_id: number;
  created_at: string;
}

export type MailStatus = 'queued' | 'sent' | 'failed';

export interface MailQueueTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  kind: string;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export type AccountTokenPurpose = 'password_reset' | 'email_change' | 'email_verify';

export interface AccountTokensTable {
  token_hash: string;
  user_id: number;
  purpose: AccountTokenPurpose;
  new_email: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface TotpSecretsTable {
  user_id: number;
  secret: string;
  created_at: string;
  confirmed_at: string | null;
  last_step: Generated<number>;
}

export interface RecoveryCodesTable {
  code_hash: string;
  user_id: number;
  used_at: string | null;
}

/** An article a reader saved to their library (migration 0012). */
export interface SavedArticlesTable {
  user_id: number;
  blog_id: number;
  saved_at: string;
}

/** Where a reader stopped in an article: `position` 0 to 1 of its length (migration 0012). */
export interface ReadingProgressTable {
  user_id: number;
  blog_id: number;
  position: number;
  read_at: string;
}

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
