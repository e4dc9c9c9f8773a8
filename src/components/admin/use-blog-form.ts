import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { validateBlogInput } from '../../shared/validation/blog.ts';
import type { FieldErrors } from '../../shared/validation/common.ts';
import { checkPickedPdf, IMAGE_MAX_BYTES, UPLOAD_MESSAGES } from '../../shared/validation/uploads.ts';
import type { RichTextEditorHandle } from '../../editor/RichTextEditor.tsx';
import { clearMessage, flashMessage, showError, showSuccess } from '../../stores/admin.ts';
import { useRefreshDrain } from './use-refresh-drain.ts';
import { blogSaveErrorText, createBlog, getBlog, listCategories, updateBlog, uploadImage, uploadPdf } from '../../client/api.ts';
import type { BlogDto, CategoryDto } from '../../shared/api-types.ts';
import { serverFieldErrors, useFieldErrors } from './use-field-errors.ts';

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
}

const EMPTY_FIELDS: BlogFields = {
  title: '',
  category_id: '',
  isVideo: '0',
  video_link: '',
  linkEnabled: false,
  form_name: '',
  form_link: '',
  payment_link: '',
};

/** Field key (as the shared validation and the API name it) and the id of its input, in form order. */
const FIELD_INPUTS: Array<[string, string]> = [
  ['title', 'blog-title'],
  ['category_id', 'blog-category'],
  ['image', 'blog-image'],
  ['pdf_link', 'blog-pdf'],
  ['isVideo', 'blog-is-video-yes'],
  ['video_link', 'blog-video-link'],
  ['form_name', 'blog-form-name'],
  ['form_link', 'blog-form-link'],
  ['payment_link', 'blog-payment-link'],
];

export type BlogFormPhase = 'loading' | 'ready' | 'missing-id' | 'failed';

function fieldsFromBlog(blog: BlogDto): BlogFields {
  return {
    title: blog.title ?? '',
    category_id: blog.category_id ? String(blog.category_id) : '',
    isVideo: blog.isVideo === '1' ? '1' : '0',
    video_link: blog.video_link ?? '',
    linkEnabled: Boolean(blog.form_name || blog.form_link),
    form_name: blog.form_name ?? '',
    form_link: blog.form_link ?? '',
    payment_link: blog.pay_link ?? '',
  };
}

/** "Any image" (SPEC.md section 5), within the upload size limit; the server checks the bytes. */
function checkFeaturedImage(file: File | null): string | null {
  if (!file) return null;
  if (!file.type.toLowerCase().startsWith('image/')) return BLOG_FORM_MESSAGES.featuredImageType;
  if (file.size > IMAGE_MAX_BYTES) return UPLOAD_MESSAGES.imageTooLarge;
  return null;
}

/** Picked files go up first; the uploaded addresses are kept, so a retry does not upload them again. */
function usePickedFile() {
  const [existing, setExisting] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const keepUploaded = (address: string) => {
    setExisting(address);
    setFile(null);
    if (input.current) input.current.value = '';
  };
  return { existing, setExisting, file, setFile, input, keepUploaded };
}

/**
 * The state and the submit of the blog create/edit form: loads the categories (and the blog when
 * editing), validates with the rules the server applies, uploads picked files, then saves. A
 * create goes on to the blog table; an edit stays with a success banner.
 */
export function useBlogForm(mode: 'create' | 'edit', blogId: string | null | undefined) {
  const [phase, setPhase] = useState<BlogFormPhase>(mode === 'create' ? 'ready' : blogId ? 'loading' : 'missing-id');
  const [categories, setCategories] = useState<CategoryDto[]>([]);
  const [fields, setFields] = useState<BlogFields>(EMPTY_FIELDS);
  const [initialHtml, setInitialHtml] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const { refreshText, watchRefresh } = useRefreshDrain();
  const { errors, setErrors, showErrors, clearError } = useFieldErrors(FIELD_INPUTS);
  const image = usePickedFile();
  const pdf = usePickedFile();
  const editorRef = useRef<RichTextEditorHandle>(null);
  const { setExisting: setExistingImage } = image;
  const { setExisting: setExistingPdf } = pdf;

  useEffect(() => {
    const controller = new AbortController();
    listCategories(controller.signal)
      .then(setCategories)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(error);
        showError(BLOG_FORM_MESSAGES.categoriesFailed);
      });
    if (mode === 'edit' && !blogId) showError(BLOG_FORM_MESSAGES.missingId);
    if (mode === 'edit' && blogId) {
      getBlog(blogId, controller.signal)
        .then((blog) => {
          setFields(fieldsFromBlog(blog));
          setExistingImage(blog.image || null);
          setExistingPdf(blog.pdf_drive_link || null);
          setInitialHtml(blog.content ?? '');
          setPhase('ready');
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          console.error(error);
          setPhase('failed');
          showError(BLOG_FORM_MESSAGES.loadFailed);
        });
    }
    return () => controller.abort();
  }, [mode, blogId, setExistingImage, setExistingPdf]);

  const update = <K extends keyof BlogFields>(key: K, value: BlogFields[K]) => {
    setFields((previous) => ({ ...previous, [key]: value }));
    clearError(key);
  };
  const pickImage = (file: File | null) => {
    image.setFile(file);
    clearError('image');
  };
  const pickPdf = (file: File | null) => {
    pdf.setFile(file);
    clearError('pdf_link');
  };

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const body = {
      title: fields.title,
      content: editorRef.current?.getHTML() ?? '',
      content_source: editorRef.current?.getMarkdown() ?? '',
      category_id: fields.category_id,
      image: image.existing ?? '',
      pdf_link: pdf.existing ?? '',
      isVideo: fields.isVideo,
      video_link: fields.isVideo === '1' ? fields.video_link : '',
      payment_link: fields.payment_link,
      form_name: fields.linkEnabled ? fields.form_name : '',
      form_link: fields.linkEnabled ? fields.form_link : '',
    };
    const found: FieldErrors = { ...validateBlogInput(body, { linkEnabled: fields.linkEnabled }).errors };
    const imageError = checkFeaturedImage(image.file);
    if (imageError) found.image = imageError;
    const pdfError = pdf.file ? checkPickedPdf(pdf.file) : null;
    if (pdfError) found.pdf_link = pdfError;
    if (showErrors(found)) return;

    clearMessage();
    setBusy(true);
    let navigating = false;
    try {
      if (image.file) {
        setProgress(BLOG_FORM_MESSAGES.uploadingImage);
        body.image = (await uploadImage(image.file)).url;
        image.keepUploaded(body.image);
      }
      if (pdf.file) {
        setProgress(BLOG_FORM_MESSAGES.uploadingPdf);
        body.pdf_link = (await uploadPdf(pdf.file)).link;
        pdf.keepUploaded(body.pdf_link);
      }
      setProgress(BLOG_FORM_MESSAGES.saving);
      if (mode === 'create') {
        const saved = await createBlog(body);
        flashMessage({ type: 'success', text: BLOG_FORM_MESSAGES.created, liveMs: saved.live_ms ?? null });
        navigating = true;
        window.location.assign('/admin/blogs-manage');
        return;
      }
      const saved = await updateBlog(blogId ?? '', body);
      image.setExisting(saved.image || null);
      pdf.setExisting(saved.pdf_drive_link || null);
      setProgress(null);
      showSuccess(BLOG_FORM_MESSAGES.updated, saved.live_ms ?? null);
      watchRefresh(saved.refresh);
    } catch (error) {
      console.error(error);
      setProgress(null);
      showError(blogSaveErrorText(error));
      const serverErrors = serverFieldErrors(error);
      if (serverErrors) setErrors(serverErrors);
    } finally {
      if (!navigating) setBusy(false);
    }
  };

  return {
    phase,
    categories,
    fields,
    update,
    errors,
    busy,
    progress,
    refreshText,
    initialHtml,
    editorRef,
    image: { existing: image.existing, input: image.input, pick: pickImage },
    pdf: { existing: pdf.existing, input: pdf.input, pick: pickPdf },
    onSubmit,
  };
}
