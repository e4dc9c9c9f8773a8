import { describe, expect, it } from 'vitest';
import { isAdminApi, isAdminPage } from './access.ts';

describe('isAdminPage', () => {
  it.each(['/admin', '/admin/', '/admin/blogs-manage', '/Admin', '/ADMIN/category', '//admin', '/%61dmin', '/admin//x'])(
    'covers /admin and everything under it, however it is spelled: %s',
    (p) => {
      expect(isAdminPage(p)).toBe(true);
    },
  );

  it.each(['/', '/administrator', '/blogs', '/login', '/blog/1'])('leaves other pages alone: %s', (p) => {
    expect(isAdminPage(p)).toBe(false);
  });
});

describe('isAdminApi', () => {
  it.each([
    ['POST', '/api/blogs'],
    ['PUT', '/api/blogs/3'],
    ['DELETE', '/api/blogs/3'],
    ['POST', '/api/blogs/upload-image-cloudinary'],
    ['POST', '/api/blogs/upload-pdf-local'],
    ['POST', '/api/categories'],
    ['PUT', '/api/categories/2'],
    ['DELETE', '/api/categories/2'],
    ['POST', '/api/carousel'],
    ['DELETE', '/api/carousel/1'],
    ['DELETE', '/api/blogs/comment/4'],
    ['PATCH', '/api/anything-new'],
  ])('keeps admin writes of docs/product.md#the-api to admins: %s %s', (m, p) => {
    expect(isAdminApi(m, p)).toBe(true);
  });

  it('keeps the admin comment list to admins', () => {
    expect(isAdminApi('GET', '/api/blogs/comment')).toBe(true);
    expect(isAdminApi('GET', '/api/blogs/comment/')).toBe(true);
  });

  it('keeps comment moderation and everything under /api/admin to admins', () => {
    expect(isAdminApi('POST', '/api/blogs/comment/moderate')).toBe(true);
    expect(isAdminApi('GET', '/api/admin/comment-blocklist')).toBe(true);
    expect(isAdminApi('HEAD', '/API/Admin/comment-blocklist/')).toBe(true);
    expect(isAdminApi('PUT', '/api/admin/comment-blocklist')).toBe(true);
    expect(isAdminApi('GET', '/api/admin')).toBe(true);
    expect(isAdminApi('GET', '/api/administrator')).toBe(false);
    expect(isAdminApi('GET', '/api/comment-token')).toBe(false);
  });

  it.each([
    ['GET', '/api/blogs'],
    ['GET', '/api/blogs/3'],
    ['GET', '/api/blogs/top-viewed'],
    ['GET', '/api/carousel'],
    ['GET', '/api/categories'],
    ['GET', '/api/users/me'],
    ['PUT', '/api/blogs/3/click'],
    ['POST', '/api/blogs/3/comment'],
    ['POST', '/api/users/register'],
    ['POST', '/api/users/login'],
    ['POST', '/api/users/logout'],
    ['POST', '/api/users/forgot-password'],
    ['POST', '/api/users/reset-password'],
    ['POST', '/api/users/confirm-email'],
    ['POST', '/api/account/password'],
    ['POST', '/api/account/email'],
    ['DELETE', '/api/account'],
    ['DELETE', '/api/account/sessions/abc'],
    ['POST', '/api/setup'],
    ['POST', '/login'],
    ['POST', '/logout'],
  ])('leaves public reads and the public writes open: %s %s', (m, p) => {
    expect(isAdminApi(m, p)).toBe(false);
  });

  it('keeps the settings, pages and demo removal to admins', () => {
    expect(isAdminApi('GET', '/api/admin/settings')).toBe(true);
    expect(isAdminApi('PUT', '/api/admin/settings')).toBe(true);
    expect(isAdminApi('PUT', '/api/admin/pages/about')).toBe(true);
    expect(isAdminApi('DELETE', '/api/admin/demo-content')).toBe(true);
    expect(isAdminApi('GET', '/api/setup')).toBe(false);
    expect(isAdminApi('PUT', '/api/setup')).toBe(true);
  });

  it('does not open a public write to another method', () => {
    expect(isAdminApi('DELETE', '/api/blogs/3/comment')).toBe(true);
    expect(isAdminApi('POST', '/api/blogs/3/click')).toBe(true);
    expect(isAdminApi('PUT', '/api/users/login')).toBe(true);
  });
});
