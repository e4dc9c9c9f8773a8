import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_initial.ts';
import * as m0002 from './0002_uploads.ts';
import * as m0003 from './0003_search.ts';
import * as m0004 from './0004_comment_moderation.ts';
import * as m0005 from './0005_publishing.ts';
import * as m0006 from './0006_settings.ts';
import * as m0007 from './0007_info_page_revisions.ts';
import * as m0008 from './0008_list_indexes.ts';
import * as m0009 from './0009_search_prefix4.ts';
import * as m0010 from './0010_search_index_version.ts';
import * as m0011 from './0011_sitemap_index.ts';
import * as m0012 from './0012_import_sources.ts';
import * as m0013 from './0013_accounts.ts';
import * as m0014 from './0014_reader_library.ts';
import * as m0015 from './0015_email_verification.ts';
import * as m0016 from './0016_downloads_index.ts';

/** Every migration in order. A static list, so the same code runs under Node and inside Vite's bundle. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_uploads': m0002,
  '0003_search': m0003,
  '0004_comment_moderation': m0004,
  '0005_publishing': m0005,
  '0006_settings': m0006,
  '0007_info_page_revisions': m0007,
  '0008_list_indexes': m0008,
  '0009_search_prefix4': m0009,
  '0010_search_index_version': m0010,
  '0011_sitemap_index': m0011,
  '0012_import_sources': m0012,
  '0013_accounts': m0013,
  '0014_reader_library': m0014,
  '0015_email_verification': m0015,
  '0016_downloads_index': m0016,
};
