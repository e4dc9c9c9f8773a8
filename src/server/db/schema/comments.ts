// Comments, the blocklist and the comment settings.
import type { Generated } from 'kysely';
import type { CommentStatus } from '../../../shared/api-types.ts';

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

export type { CommentStatus };

export interface CommentBlocklistTable {
  word: string;
  created_at: string;
}

export interface CommentSettingsTable {
  key: string;
  value: string;
}
