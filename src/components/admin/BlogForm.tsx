import type { ChangeEvent } from 'react';
import { PDF_ACCEPT } from '../../shared/validation/uploads.ts';
import { RichTextEditor } from '../../editor/RichTextEditor.tsx';
import { uploadImage } from '../../client/api.ts';
import { FieldError, describedBy } from '../forms/FieldError.tsx';
import { TextField } from '../forms/TextField.tsx';
import { YesNoField } from '../forms/YesNoField.tsx';
import { useBlogForm } from './use-blog-form.ts';
import { PublishingFields } from './PublishingFields.tsx';
import { RecoveryOffer } from './RecoveryOffer.tsx';
import { RevisionsPanel } from './RevisionsPanel.tsx';
import { blogRevisionsUrl } from '../../client/revisions-api.ts';
import { siteLink } from './publishing.ts';
import { SaveStatus } from './SaveStatus.tsx';
import './publishing.css';

export { BLOG_FORM_MESSAGES } from './use-blog-form.ts';

/** The fields typed into a text input: each binds its value, its error and its update the same way. */
type TextKey = 'title' | 'video_link' | 'form_name' | 'form_link' | 'payment_link';

const URL_INPUT = { type: 'url', inputMode: 'url' } as const;

/** The editor inserts the stored image by its address. */
const uploadEditorImage = async (file: File) => (await uploadImage(file)).url;

/**
 * The blog create and edit form (one component for both): fields, uploads, the rich-text editor,
 * validation shared with the server, and the busy state of docs/product.md#article-form. The state and the
 * submit live in useBlogForm.
 */
export default function BlogForm({ mode, blogId }: { mode: 'create' | 'edit'; blogId?: string | null }) {
  const form = useBlogForm(mode, blogId);
  const { phase, categories, fields, update, errors, busy, progress, refreshText, initialHtml, editorRef, image, pdf, onSubmit } =
    form;
  const link = form.saved ? siteLink(form.saved) : null;

  const bindText = (key: TextKey) => ({
    value: fields[key],
    error: errors[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => update(key, event.target.value),
  });

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
    <>
      {form.autosave.recovery && (
        <RecoveryOffer copy={form.autosave.recovery} onRecover={form.autosave.recover} onDiscard={form.autosave.discard} />
      )}
      <form className="admin-form blog-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <TextField id="blog-title" label="Title" type="text" required {...bindText('title')} />

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

        <PublishingFields
          status={fields.status}
          publishAt={fields.publish_at}
          errors={errors}
          onStatus={(status) => update('status', status)}
          onPublishAt={(value) => update('publish_at', value)}
        />

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
                <img src={image.existing} alt="Current featured image" width={160} height={90} />
                <span>Current image. Choose a new file to replace it.</span>
                <button type="button" className="btn btn-small" onClick={image.remove}>
                  Remove image
                </button>
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
                Choose a new file to replace it.{' '}
                <button type="button" className="btn btn-small" onClick={pdf.remove}>
                  Remove PDF
                </button>
              </p>
            )
          }
          onChange={(event) => pdf.pick(event.target.files?.[0] ?? null)}
        />

        <YesNoField
          legend="Video post?"
          name="isVideo"
          yes={fields.isVideo === '1'}
          onChange={(yes) => update('isVideo', yes ? '1' : '0')}
          yesId="blog-is-video-yes"
          errorId="blog-is-video"
          error={errors.isVideo}
        />

        {fields.isVideo === '1' && (
          <TextField
            id="blog-video-link"
            label="Video link"
            placeholder="https://www.youtube.com/watch?v=…"
            {...URL_INPUT}
            {...bindText('video_link')}
          />
        )}

        <YesNoField
          legend="Add a form link?"
          name="linkEnabled"
          yes={fields.linkEnabled}
          onChange={(yes) => update('linkEnabled', yes)}
        />

        {fields.linkEnabled && (
          <>
            <TextField id="blog-form-name" label="Form name" type="text" {...bindText('form_name')} />
            <TextField id="blog-form-link" label="Form link" {...URL_INPUT} {...bindText('form_link')} />
          </>
        )}

        <TextField
          id="blog-payment-link"
          label="Payment link"
          placeholder="Optional"
          {...URL_INPUT}
          {...bindText('payment_link')}
        />

        <div className="field">
          <span className="field-label" id="blog-content-label">
            Content
          </span>
          <RichTextEditor
            key={form.editorKey}
            onReady={form.onEditorReady}
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
          {link && (
            <a className="btn" href={link.href} target="_blank" rel="noopener">
              {link.label}
            </a>
          )}
          <SaveStatus progress={progress} refreshText={refreshText} />
          <p className="autosave-status" role="status" aria-live="polite">
            {form.autosave.text}
          </p>
        </div>
      </form>
      {mode === 'edit' && blogId && form.saved && (
        <RevisionsPanel
          revisionsUrl={blogRevisionsUrl(blogId)}
          version={form.revisionsVersion}
          current={() => ({ title: fields.title, text: editorRef.current?.getMarkdown() ?? '' })}
          onRestored={form.onRestored}
        />
      )}
    </>
  );
}
