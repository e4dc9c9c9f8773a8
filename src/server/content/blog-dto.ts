import type { Blog } from '../db/repositories/blogs.ts';
import type { Comment } from '../db/repositories/comments.ts';
import type { AdminBlogDto, BlogDto, BlogWithComments, CommentDto } from '../../shared/api-types.ts';

export function toCommentDto(comment: Comment): CommentDto {
  return { id: comment.id, username: comment.username, comment: comment.comment, created_at: comment.created_at };
}

/** A blog as the API returns it: every entity field of docs/product.md#what-is-stored, `_id` and `isVideo` included. */
export function toBlogDto(blog: Blog): BlogDto;
export function toBlogDto(blog: Blog, comments: Comment[]): BlogWithComments;
export function toBlogDto(blog: Blog, comments?: Comment[]): BlogDto | BlogWithComments {
  const dto: BlogDto = {
    id: blog.id,
    _id: blog.id,
    title: blog.title,
    author: blog.author,
    content: blog.content,
    content_source: blog.content_source,
    category_id: blog.category_id,
    category_name: blog.category_name,
    image: blog.image,
    video_link: blog.video_link,
    isVideo: blog.is_video === 1 ? '1' : '0',
    pdf_drive_link: blog.pdf_drive_link,
    pay_link: blog.pay_link,
    form_name: blog.form_name,
    form_link: blog.form_link,
    created_at: blog.created_at,
    updated_at: blog.updated_at,
    clicks: blog.clicks,
  };
  return comments ? { ...dto, comments: comments.map(toCommentDto) } : dto;
}

/** An admin's view adds the publishing state; readers' answers keep the fields of docs/product.md#what-is-stored only. */
export function withPublishing<T extends BlogDto>(dto: T, blog: Pick<Blog, 'status' | 'publish_at'>): T & AdminBlogDto {
  return { ...dto, status: blog.status, publish_at: blog.publish_at };
}
