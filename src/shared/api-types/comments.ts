// Comments as readers and admins see them, and moderation.
import type { LiveTime } from './answers.ts';

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
