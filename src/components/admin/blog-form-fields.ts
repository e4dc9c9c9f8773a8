import { useRef, useState } from 'react';
import { IMAGE_MAX_BYTES, UPLOAD_MESSAGES } from '../../shared/validation/uploads.ts';
import type { AdminBlogDto, BlogStatus } from '../../shared/api-types.ts';
import { isoToLocalInput } from './publishing.ts';

/** The blog form's field values and their inputs, and the picked-file state of its uploads. */

export const BLOG_FORM_MESSAGES = {
  missingId: 'Blog ID not found in URL.',
  loadFailed: 'Failed to load blog data.',
  categoriesFailed: 'Failed to fetch categories.',
  featuredImageType: 'Featured image must be an image file.',
  uploadingImage: 'Uploading featured image...',
  uploadingPdf: 'Uploading PDF...',
  saving: 'Saving blog post...',
  created: 'Blog post created successfully.',
  updated: 'Blog post updated successfully.',
  restored: 'Revision restored.',
  recovered: 'Unsaved changes recovered. Save to keep them.',
} as const;

export interface BlogFields {
  title: string;
  category_id: string;
  isVideo: '0' | '1';
  video_link: string;
  linkEnabled: boolean;
  form_name: string;
  form_link: string;
  payment_link: string;
  status: BlogStatus;
  /** As the datetime-local input holds it (local time, no zone). */
  publish_at: string;
}

export const EMPTY_FIELDS: BlogFields = {
  title: '',
  category_id: '',
  isVideo: '0',
  video_link: '',
  linkEnabled: false,
  form_name: '',
  form_link: '',
  payment_link: '',
  status: 'published',
  publish_at: '',
};

/** Field key (as the shared validation and the API name it) and the id of its input, in form order. */
export const FIELD_INPUTS: Array<[string, string]> = [
  ['title', 'blog-title'],
  ['category_id', 'blog-category'],
  ['status', 'blog-status'],
  ['publish_at', 'blog-publish-at'],
  ['image', 'blog-image'],
  ['pdf_link', 'blog-pdf'],
  ['isVideo', 'blog-is-video-yes'],
  ['video_link', 'blog-video-link'],
  ['form_name', 'blog-form-name'],
  ['form_link', 'blog-form-link'],
  ['payment_link', 'blog-payment-link'],
];

export function fieldsFromBlog(blog: AdminBlogDto): BlogFields {
  return {
    title: blog.title ?? '',
    category_id: blog.category_id ? String(blog.category_id) : '',
    isVideo: blog.isVideo === '1' ? '1' : '0',
    video_link: blog.video_link ?? '',
    linkEnabled: Boolean(blog.form_name || blog.form_link),
    form_name: blog.form_name ?? '',
    form_link: blog.form_link ?? '',
    payment_link: blog.pay_link ?? '',
    status: blog.status ?? 'published',
    publish_at: isoToLocalInput(blog.publish_at),
  };
}

/** A saved form body (the local copy) back into field values. */
export function fieldsFromBody(body: Record<string, string>): BlogFields {
  return {
    title: body.title ?? '',
    category_id: body.category_id ?? '',
    isVideo: body.isVideo === '1' ? '1' : '0',
    video_link: body.video_link ?? '',
    linkEnabled: Boolean(body.form_name || body.form_link),
    form_name: body.form_name ?? '',
    form_link: body.form_link ?? '',
    payment_link: body.payment_link ?? '',
    status: body.status === 'draft' || body.status === 'scheduled' ? body.status : 'published',
    publish_at: isoToLocalInput(body.publish_at),
  };
}

/** "Any image" (docs/product.md#validation-rules), within the upload size limit; the server checks the bytes. */
export function checkFeaturedImage(file: File | null): string | null {
  if (!file) return null;
  if (!file.type.toLowerCase().startsWith('image/')) return BLOG_FORM_MESSAGES.featuredImageType;
  if (file.size > IMAGE_MAX_BYTES) return UPLOAD_MESSAGES.imageTooLarge;
  return null;
}

/** Picked files go up first; the uploaded addresses are kept, so a retry does not upload them again. */
export function usePickedFile() {
  const [existing, setExisting] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const keepUploaded = (address: string) => {
    setExisting(address);
    setFile(null);
    if (input.current) input.current.value = '';
  };
  /** Takes the file off the article (saved with the next save). */
  const remove = () => {
    setExisting(null);
    setFile(null);
    if (input.current) input.current.value = '';
  };
  return { existing, setExisting, file, setFile, input, keepUploaded, remove };
}
