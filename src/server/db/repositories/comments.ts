import type { Db } from '../client.ts';

export interface Comment {
  id: number;
  blog_id: number;
  username: string;
  comment: string;
  created_at: string;
}

export interface CommentWithBlogTitle extends Comment {
  blog_title: string;
}

export function listCommentsForBlog(db: Db, blogId: number): Promise<Comment[]> {
  return db
    .selectFrom('comments')
    .select(['id', 'blog_id', 'username', 'comment', 'created_at'])
    .where('blog_id', '=', blogId)
    .orderBy('id')
    .execute();
}

export function listAllComments(db: Db, options: { limit: number; offset: number }): Promise<CommentWithBlogTitle[]> {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select([
      'comments.id',
      'comments.blog_id',
      'comments.username',
      'comments.comment',
      'comments.created_at',
      'blogs.title as blog_title',
    ])
    .orderBy('comments.id', 'desc')
    .limit(options.limit)
    .offset(options.offset)
    .execute();
}

export function insertComment(
  db: Db,
  input: { blogId: number; username: string; comment: string; contact: string | null },
): Promise<Comment> {
  return db
    .insertInto('comments')
    .values({
      blog_id: input.blogId,
      username: input.username,
      comment: input.comment,
      contact: input.contact,
      created_at: new Date().toISOString(),
    })
    .returning(['id', 'blog_id', 'username', 'comment', 'created_at'])
    .executeTakeFirstOrThrow();
}

export function findComment(db: Db, id: number): Promise<Comment | undefined> {
  return db
    .selectFrom('comments')
    .select(['id', 'blog_id', 'username', 'comment', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteComment(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Comments whose article still exists (the admin list joins on the article). */
export async function countAllComments(db: Db): Promise<number> {
  const row = await db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
