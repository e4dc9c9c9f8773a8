import { PDF_ACCEPT } from '../../shared/validation/uploads.ts';
import { RichTextEditor } from '../../editor/RichTextEditor.tsx';
import { uploadImage } from '../../client/api.ts';
import { FieldError, describedBy } from '../forms/FieldError.tsx';
import { TextField } from '../forms/TextField.tsx';
import { useBlogForm } from './use-blog-form.ts';

export { BLOG_FORM_MESSAGES } from './use-blog-form.ts';

/** The editor inserts the stored image by its address. */
const uploadEditorImage = async (file: File) => (await uploadImage(file)).url;

/**
 * The blog create and edit form (one component for both): fields, uploads, the rich-text editor,
 * validation shared with the server, and the busy state of SPEC.md section 4. The state and the
 * submit live in useBlogForm.
 */
export default function BlogForm({ mode, blogId }: { mode: 'create' | 'edit'; blogId?: string | null }) {
  const { phase, categories, fields, update, errors, busy, progress, refreshText, initialHtml, editorRef, image, pdf, onSubmit } =
    useBlogForm(mode, blogId);

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
      <TextField
        id="blog-title"
        label="Title"
        type="text"
        value={fields.title}
        required
        error={errors.title}
        onChange={(event) => update('title', event.target.value)}
      />

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

      <TextField
        id="blog-image"
        label="Featured image"
        inputRef={image.input}
        type="file"
        accept="image/*"
        error={errors.image}
        aboveInput={
          image.existing && (
            <div className="current-file">
              <img src={image.existing} alt="Current featured image" width={160} />
              <span>Current image. Choose a new file to replace it.</span>
            </div>
          )
        }
        onChange={(event) => image.pick(event.target.files?.[0] ?? null)}
      />

      <TextField
        id="blog-pdf"
        label="PDF"
        inputRef={pdf.input}
        type="file"
        accept={PDF_ACCEPT}
        error={errors.pdf_link}
        aboveInput={
          pdf.existing && (
            <p className="current-file">
              <a href={pdf.existing} target="_blank" rel="noopener">
                Current PDF
              </a>{' '}
              Choose a new file to replace it.
            </p>
          )
        }
        onChange={(event) => pdf.pick(event.target.files?.[0] ?? null)}
      />

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
        <TextField
          id="blog-video-link"
          label="Video link"
          type="url"
          inputMode="url"
          placeholder="https://www.youtube.com/watch?v=…"
          value={fields.video_link}
          error={errors.video_link}
          onChange={(event) => update('video_link', event.target.value)}
        />
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
          <TextField
            id="blog-form-name"
            label="Form name"
            type="text"
            value={fields.form_name}
            error={errors.form_name}
            onChange={(event) => update('form_name', event.target.value)}
          />
          <TextField
            id="blog-form-link"
            label="Form link"
            type="url"
            inputMode="url"
            value={fields.form_link}
            error={errors.form_link}
            onChange={(event) => update('form_link', event.target.value)}
          />
        </>
      )}

      <TextField
        id="blog-payment-link"
        label="Payment link"
        type="url"
        inputMode="url"
        placeholder="Optional"
        value={fields.payment_link}
        error={errors.payment_link}
        onChange={(event) => update('payment_link', event.target.value)}
      />

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
        <p className="refresh-status" role="status" aria-live="polite">
          {refreshText}
        </p>
      </div>
    </form>
  );
}
