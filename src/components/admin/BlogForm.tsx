import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { validateBlogInput } from '../../shared/validation/blog.ts';
import { hasErrors, type FieldErrors } from '../../shared/validation/common.ts';
import { checkPickedPdf, IMAGE_MAX_BYTES, PDF_ACCEPT, UPLOAD_MESSAGES } from '../../shared/validation/uploads.ts';
import { RichTextEditor, type RichTextEditorHandle } from '../../editor/RichTextEditor.tsx';
import { clearMessage, flashMessage, showError, showSuccess } from '../../stores/admin.ts';
import {
  ApiError,
  blogSaveErrorText,
  createBlog,
  getBlog,
  listCategories,
  updateBlog,
  uploadImage,
  uploadPdf,
} from '../../client/api.ts';
import type { BlogDto, CategoryDto } from '../../shared/api-types.ts';
import { FieldError, describedBy } from './FieldError.tsx';

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

interface Fields {
  title: string;
  category_id: string;
  isVideo: '0' | '1';
  video_link: string;
  linkEnabled: boolean;
  form_name: string;
  form_link: string;
  payment_link: string;
}

const EMPTY_FIELDS: Fields = {
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

type Phase = 'loading' | 'ready' | 'missing-id' | 'failed';

function fieldsFromBlog(blog: BlogDto): Fields {
  const linkEnabled = Boolean(blog.form_name || blog.form_link);
  return {
    title: blog.title ?? '',
    category_id: blog.category_id ? String(blog.category_id) : '',
    isVideo: blog.isVideo === '1' ? '1' : '0',
    video_link: blog.video_link ?? '',
    linkEnabled,
    form_name: blog.form_name ?? '',
    form_link: blog.form_link ?? '',
    payment_link: blog.pay_link ?? '',
  };
}

/** The editor inserts the stored image by its address. */
const uploadEditorImage = async (file: File) => (await uploadImage(file)).url;

/** "Any image" (SPEC.md section 5), within the upload size limit; the server checks the bytes. */
function checkFeaturedImage(file: File | null): string | null {
  if (!file) return null;
  if (!file.type.toLowerCase().startsWith('image/')) return BLOG_FORM_MESSAGES.featuredImageType;
  if (file.size > IMAGE_MAX_BYTES) return UPLOAD_MESSAGES.imageTooLarge;
  return null;
}

/**
 * The blog create and edit form (one component for both): fields, uploads, the rich-text editor,
 * validation shared with the server, and the busy state of SPEC.md section 4.
 */
export default function BlogForm({ mode, blogId }: { mode: 'create' | 'edit'; blogId?: string | null }) {
  const [phase, setPhase] = useState<Phase>(mode === 'create' ? 'ready' : blogId ? 'loading' : 'missing-id');
  const [categories, setCategories] = useState<CategoryDto[]>([]);
  const [fields, setFields] = useState<Fields>(EMPTY_FIELDS);
  const [existingImage, setExistingImage] = useState<string | null>(null);
  const [existingPdf, setExistingPdf] = useState<string | null>(null);
  const [imageFile, setImageFile] = useState<File | null>(null);
  const [pdfFile, setPdfFile] = useState<File | null>(null);
  const [initialHtml, setInitialHtml] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const editorRef = useRef<RichTextEditorHandle>(null);
  const imageInput = useRef<HTMLInputElement>(null);
  const pdfInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    listCategories(controller.signal)
      .then(setCategories)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          console.error(error);
          showError(BLOG_FORM_MESSAGES.categoriesFailed);
        }
      });
    if (mode === 'edit') {
      if (!blogId) {
        showError(BLOG_FORM_MESSAGES.missingId);
      } else {
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
    }
    return () => controller.abort();
  }, [mode, blogId]);

  const update = <K extends keyof Fields>(key: K, value: Fields[K]) => {
    setFields((previous) => ({ ...previous, [key]: value }));
    setErrors((previous) => {
      if (!(key in previous)) return previous;
      const next = { ...previous };
      delete next[key];
      return next;
    });
  };

  const focusFirstError = (found: FieldErrors) => {
    const first = FIELD_INPUTS.find(([key]) => found[key]);
    if (first) document.getElementById(first[1])?.focus();
  };

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const content = editorRef.current?.getHTML() ?? '';
    const contentSource = editorRef.current?.getMarkdown() ?? '';
    const body = {
      title: fields.title,
      content,
      content_source: contentSource,
      category_id: fields.category_id,
      image: existingImage ?? '',
      pdf_link: existingPdf ?? '',
      isVideo: fields.isVideo,
      video_link: fields.isVideo === '1' ? fields.video_link : '',
      payment_link: fields.payment_link,
      form_name: fields.linkEnabled ? fields.form_name : '',
      form_link: fields.linkEnabled ? fields.form_link : '',
    };
    const found: FieldErrors = { ...validateBlogInput(body, { linkEnabled: fields.linkEnabled }).errors };
    const imageError = checkFeaturedImage(imageFile);
    if (imageError) found.image = imageError;
    if (pdfFile) {
      const pdfError = checkPickedPdf(pdfFile);
      if (pdfError) found.pdf_link = pdfError;
    }
    setErrors(found);
    if (hasErrors(found)) {
      focusFirstError(found);
      return;
    }

    clearMessage();
    setBusy(true);
    let navigating = false;
    try {
      if (imageFile) {
        setProgress(BLOG_FORM_MESSAGES.uploadingImage);
        body.image = (await uploadImage(imageFile)).url;
        // Kept, so a retry after a failed save does not upload the same file again.
        setExistingImage(body.image);
        setImageFile(null);
        if (imageInput.current) imageInput.current.value = '';
      }
      if (pdfFile) {
        setProgress(BLOG_FORM_MESSAGES.uploadingPdf);
        body.pdf_link = (await uploadPdf(pdfFile)).link;
        setExistingPdf(body.pdf_link);
        setPdfFile(null);
        if (pdfInput.current) pdfInput.current.value = '';
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
      setExistingImage(saved.image || null);
      setExistingPdf(saved.pdf_drive_link || null);
      setProgress(null);
      showSuccess(BLOG_FORM_MESSAGES.updated, saved.live_ms ?? null);
    } catch (error) {
      console.error(error);
      setProgress(null);
      showError(blogSaveErrorText(error));
      if (error instanceof ApiError && hasErrors(error.fields)) setErrors(error.fields);
    } finally {
      if (!navigating) setBusy(false);
    }
  };

  if (phase === 'missing-id' || phase === 'failed') {
    return (
      <p>
        <a href="/admin/blogs-manage">Back to the blog list</a>
      </p>
    );
  }
  if (phase === 'loading') {
    return (
      <p className="loading" role="status">
        Loading blog data...
      </p>
    );
  }

  return (
    <form className="admin-form blog-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <div className="field">
        <label htmlFor="blog-title">Title</label>
        <input
          id="blog-title"
          type="text"
          value={fields.title}
          required
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={describedBy('blog-title', errors.title)}
          onChange={(event) => update('title', event.target.value)}
        />
        <FieldError id="blog-title" message={errors.title} />
      </div>

      <div className="field">
        <label htmlFor="blog-category">Category</label>
        <select
          id="blog-category"
          value={fields.category_id}
          required
          aria-invalid={errors.category_id ? true : undefined}
          aria-describedby={describedBy('blog-category', errors.category_id)}
          onChange={(event) => update('category_id', event.target.value)}
        >
          <option value="" disabled>
            Select a category
          </option>
          {categories.map((category) => (
            <option key={category.id} value={String(category.id)}>
              {category.name}
            </option>
          ))}
        </select>
        <FieldError id="blog-category" message={errors.category_id} />
      </div>

      <div className="field">
        <label htmlFor="blog-image">Featured image</label>
        {existingImage && (
          <div className="current-file">
            <img src={existingImage} alt="Current featured image" width={160} />
            <span>Current image. Choose a new file to replace it.</span>
          </div>
        )}
        <input
          id="blog-image"
          ref={imageInput}
          type="file"
          accept="image/*"
          aria-invalid={errors.image ? true : undefined}
          aria-describedby={describedBy('blog-image', errors.image)}
          onChange={(event) => {
            setImageFile(event.target.files?.[0] ?? null);
            setErrors(({ image: _dropped, ...rest }) => rest);
          }}
        />
        <FieldError id="blog-image" message={errors.image} />
      </div>

      <div className="field">
        <label htmlFor="blog-pdf">PDF</label>
        {existingPdf && (
          <p className="current-file">
            <a href={existingPdf} target="_blank" rel="noopener">
              Current PDF
            </a>{' '}
            Choose a new file to replace it.
          </p>
        )}
        <input
          id="blog-pdf"
          ref={pdfInput}
          type="file"
          accept={PDF_ACCEPT}
          aria-invalid={errors.pdf_link ? true : undefined}
          aria-describedby={describedBy('blog-pdf', errors.pdf_link)}
          onChange={(event) => {
            setPdfFile(event.target.files?.[0] ?? null);
            setErrors(({ pdf_link: _dropped, ...rest }) => rest);
          }}
        />
        <FieldError id="blog-pdf" message={errors.pdf_link} />
      </div>

      <fieldset className="field toggle">
        <legend>Video post?</legend>
        <label>
          <input
            id="blog-is-video-yes"
            type="radio"
            name="isVideo"
            value="1"
            checked={fields.isVideo === '1'}
            onChange={() => update('isVideo', '1')}
          />{' '}
          Yes
        </label>
        <label>
          <input type="radio" name="isVideo" value="0" checked={fields.isVideo === '0'} onChange={() => update('isVideo', '0')} />{' '}
          No
        </label>
        <FieldError id="blog-is-video" message={errors.isVideo} />
      </fieldset>

      {fields.isVideo === '1' && (
        <div className="field">
          <label htmlFor="blog-video-link">Video link</label>
          <input
            id="blog-video-link"
            type="url"
            inputMode="url"
            placeholder="https://www.youtube.com/watch?v=…"
            value={fields.video_link}
            aria-invalid={errors.video_link ? true : undefined}
            aria-describedby={describedBy('blog-video-link', errors.video_link)}
            onChange={(event) => update('video_link', event.target.value)}
          />
          <FieldError id="blog-video-link" message={errors.video_link} />
        </div>
      )}

      <fieldset className="field toggle">
        <legend>Add a form link?</legend>
        <label>
          <input
            type="radio"
            name="linkEnabled"
            value="1"
            checked={fields.linkEnabled}
            onChange={() => update('linkEnabled', true)}
          />{' '}
          Yes
        </label>
        <label>
          <input
            type="radio"
            name="linkEnabled"
            value="0"
            checked={!fields.linkEnabled}
            onChange={() => update('linkEnabled', false)}
          />{' '}
          No
        </label>
      </fieldset>

      {fields.linkEnabled && (
        <>
          <div className="field">
            <label htmlFor="blog-form-name">Form name</label>
            <input
              id="blog-form-name"
              type="text"
              value={fields.form_name}
              aria-invalid={errors.form_name ? true : undefined}
              aria-describedby={describedBy('blog-form-name', errors.form_name)}
              onChange={(event) => update('form_name', event.target.value)}
            />
            <FieldError id="blog-form-name" message={errors.form_name} />
          </div>
          <div className="field">
            <label htmlFor="blog-form-link">Form link</label>
            <input
              id="blog-form-link"
              type="url"
              inputMode="url"
              value={fields.form_link}
              aria-invalid={errors.form_link ? true : undefined}
              aria-describedby={describedBy('blog-form-link', errors.form_link)}
              onChange={(event) => update('form_link', event.target.value)}
            />
            <FieldError id="blog-form-link" message={errors.form_link} />
          </div>
        </>
      )}

      <div className="field">
        <label htmlFor="blog-payment-link">Payment link</label>
        <input
          id="blog-payment-link"
          type="url"
          inputMode="url"
          placeholder="Optional"
          value={fields.payment_link}
          aria-invalid={errors.payment_link ? true : undefined}
          aria-describedby={describedBy('blog-payment-link', errors.payment_link)}
          onChange={(event) => update('payment_link', event.target.value)}
        />
        <FieldError id="blog-payment-link" message={errors.payment_link} />
      </div>

      <div className="field">
        <span className="field-label" id="blog-content-label">
          Content
        </span>
        <RichTextEditor
          initialHtml={initialHtml}
          label="Content"
          handleRef={editorRef}
          uploadImage={uploadEditorImage}
          disabled={busy}
        />
        <FieldError id="blog-content" message={errors.content ?? errors.content_source} />
      </div>

      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {mode === 'create' ? 'Create Blog' : 'Update Blog'}
        </button>
        {mode === 'edit' && (
          <a className="btn" href="/admin/blogs-manage">
            Back to blogs
          </a>
        )}
        <p className="progress" role="status" aria-live="polite">
          {progress}
        </p>
      </div>
    </form>
  );
}
