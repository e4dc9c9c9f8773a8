import { describe, expect, it } from 'vitest';
import { BLOG_MESSAGES, parseIsVideo, validateBlogInput, type BlogFormInput } from './blog.ts';

const base: BlogFormInput = { title: 'A title', content: '<p>x</p>', category_id: 3 };

function errorsOf(input: BlogFormInput, linkEnabled?: boolean) {
  return validateBlogInput({ ...base, ...input }, linkEnabled === undefined ? {} : { linkEnabled }).errors;
}

describe('validateBlogInput', () => {
  it('normalizes a valid body: trimmed, blanks as null, isVideo as a boolean', () => {
    const { values, errors } = validateBlogInput({
      title: '  A title  ',
      content: '<p>x</p>',
      content_source: 'x',
      category_id: '3',
      image: ' ',
      pdf_link: '/uploads/pdfs/abc.pdf',
      isVideo: '0',
      video_link: 'https://youtu.be/dQw4w9WgXcQ',
      payment_link: 'https://pay.example.com',
      form_name: '',
      form_link: '',
    });
    expect(errors).toEqual({});
    expect(values).toEqual({
      title: 'A title',
      content: '<p>x</p>',
      content_source: 'x',
      category_id: 3,
      image: null,
      pdf_link: '/uploads/pdfs/abc.pdf',
      is_video: false,
      video_link: null,
      payment_link: 'https://pay.example.com',
      form_name: null,
      form_link: null,
      status: 'published',
      publish_at: null,
    });
  });

  it('requires a title of at most 200 characters', () => {
    expect(errorsOf({ title: '' })).toEqual({ title: BLOG_MESSAGES.titleRequired });
    expect(errorsOf({ title: ' \n\t ' })).toEqual({ title: BLOG_MESSAGES.titleRequired });
    expect(errorsOf({ title: 'x'.repeat(200) })).toEqual({});
    expect(errorsOf({ title: 'x'.repeat(201) })).toEqual({ title: BLOG_MESSAGES.titleTooLong });
  });

  it.each([undefined, null, '', 'abc', 0, -2, 1.5, '1e3', {}])('requires a category id (%s)', (category_id) => {
    expect(errorsOf({ category_id })).toEqual({ category_id: BLOG_MESSAGES.categoryRequired });
  });

  it('takes an optional payment link that must be http(s)', () => {
    expect(errorsOf({ payment_link: '' })).toEqual({});
    expect(errorsOf({ payment_link: 'http://x.example/pay' })).toEqual({});
    for (const bad of ['pay.example.com', 'javascript:alert(1)', 'mailto:a@b.c', 'https://', 'https://a b.example']) {
      expect(errorsOf({ payment_link: bad })).toEqual({ payment_link: BLOG_MESSAGES.paymentLink });
    }
  });

  it('requires a URL video link only on a video post', () => {
    expect(errorsOf({ isVideo: '1' })).toEqual({ video_link: BLOG_MESSAGES.videoRequired });
    expect(errorsOf({ isVideo: '1', video_link: 'not a url' })).toEqual({ video_link: BLOG_MESSAGES.videoInvalid });
    expect(errorsOf({ isVideo: '1', video_link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })).toEqual({});
    expect(errorsOf({ isVideo: '0', video_link: 'not a url' })).toEqual({});
    expect(validateBlogInput({ ...base, isVideo: '0', video_link: 'https://x.example' }).values.video_link).toBeNull();
  });

  it('requires form name and a URL form link as soon as either is given', () => {
    expect(errorsOf({ form_name: 'Join' })).toEqual({ form_link: BLOG_MESSAGES.formLinkRequired });
    expect(errorsOf({ form_link: 'https://forms.example/x' })).toEqual({ form_name: BLOG_MESSAGES.formNameRequired });
    expect(errorsOf({ form_name: 'Join', form_link: 'forms.example' })).toEqual({ form_link: BLOG_MESSAGES.formLinkInvalid });
    expect(errorsOf({ form_name: 'Join', form_link: 'https://forms.example/x' })).toEqual({});
    expect(errorsOf({ form_name: 'x'.repeat(201), form_link: 'https://forms.example/x' })).toEqual({
      form_name: BLOG_MESSAGES.formNameTooLong,
    });
  });

  it("follows the form's link toggle when one is given", () => {
    expect(errorsOf({}, true)).toEqual({ form_name: BLOG_MESSAGES.formNameRequired, form_link: BLOG_MESSAGES.formLinkRequired });
    const off = validateBlogInput({ ...base, form_name: 'Join', form_link: 'junk' }, { linkEnabled: false });
    expect(off.errors).toEqual({});
    expect(off.values).toMatchObject({ form_name: null, form_link: null });
  });

  it('takes the image and the PDF as an upload path or an http(s) address only', () => {
    for (const ok of [
      '',
      null,
      undefined,
      '/uploads/images/abc-w1600.webp',
      '/uploads/demo/cover-1.png',
      'https://cdn.example/a.png',
    ]) {
      expect(errorsOf({ image: ok, pdf_link: ok })).toEqual({});
    }
    for (const bad of [
      'javascript:alert(1)',
      '/uploads/../x',
      '/uploads/./x',
      '/uploads//x',
      '/uploads/',
      '/other/x.png',
      '//evil.example/a',
      'data:image/png;base64,AA',
      '/uploads/%2e%2e/x',
      42,
    ]) {
      expect(errorsOf({ image: bad, pdf_link: bad })).toEqual({ image: BLOG_MESSAGES.image, pdf_link: BLOG_MESSAGES.pdf });
    }
  });

  it('limits content and editor source to 500 KB of UTF-8', () => {
    expect(errorsOf({ content: 'é'.repeat(256 * 1024) })).toEqual({ content: BLOG_MESSAGES.contentTooLong });
    expect(errorsOf({ content: 'a'.repeat(500 * 1024) })).toEqual({});
    expect(errorsOf({ content_source: 'a'.repeat(500 * 1024 + 1) })).toEqual({
      content_source: BLOG_MESSAGES.contentSourceTooLong,
    });
    expect(errorsOf({ content: ['<p>'] })).toEqual({ content: BLOG_MESSAGES.contentNotText });
  });
});

describe('parseIsVideo', () => {
  it.each([
    ['1', true],
    [1, true],
    [true, true],
    ['true', true],
    ['0', false],
    [0, false],
    [false, false],
    ['', false],
    [undefined, false],
    [null, false],
    ['yes', null],
    [2, null],
  ])('%s -> %s', (input, expected) => {
    expect(parseIsVideo(input)).toBe(expected);
  });
});
