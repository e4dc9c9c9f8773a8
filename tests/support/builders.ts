import type { BlogWrite } from '../../src/server/db/repositories/blogs.ts';

/** A blog row for the repositories (insertBlog/updateBlog): a plain article unless told otherwise. */
export function buildBlogWrite(overrides: Partial<BlogWrite> = {}): BlogWrite {
  return {
    title: 'A blog',
    author: 'admin',
    content: '<p>x</p>',
    content_source: null,
    category_id: null,
    image: null,
    video_link: null,
    is_video: 0,
    pdf_drive_link: null,
    pay_link: null,
    form_name: null,
    form_link: null,
    ...overrides,
  };
}
