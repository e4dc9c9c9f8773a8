import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import { validateBlogInput } from '../../shared/validation/blog.ts';
import type { FieldErrors } from '../../shared/validation/common.ts';
import { checkPickedPdf } from '../../shared/validation/uploads.ts';
import type { RichTextEditorHandle } from '../../editor/RichTextEditor.tsx';
import { clearMessage, flashMessage, showError, showSuccess } from '../../stores/admin.ts';
import { useRefreshDrain } from './use-refresh-drain.ts';
import { blogSaveErrorText, createBlog, getBlog, listCategories, updateBlog, uploadImage, uploadPdf } from '../../client/api.ts';
import type { AdminBlogDto, CategoryDto } from '../../shared/api-types.ts';
import { serverFieldErrors, useFieldErrors } from './use-field-errors.ts';
import {
  BLOG_FORM_MESSAGES,
  EMPTY_FIELDS,
  FIELD_INPUTS,
  checkFeaturedImage,
  fieldsFromBlog,
  fieldsFromBody,
  usePickedFile,
  type BlogFields,
} from './blog-form-fields.ts';
import { localInputToIso } from './publishing.ts';
import { useAutosave, type FormBody } from './use-autosave.ts';

export { BLOG_FORM_MESSAGES, type BlogFields };

export type BlogFormPhase = 'loading' | 'ready' | 'missing-id' | 'failed';

/**
 * The state and the submit of the blog create/edit form: loads the categories (and the blog when
 * editing), validates with the rules the server applies, uploads picked files, then saves. A
 * create goes on to the blog table; an edit stays with a success banner and a link to the article
 * (or its preview). Autosave (use-autosave.ts) keeps unsaved work.
 */
export function useBlogForm(mode: 'create' | 'edit', blogId: string | null | undefined) {
  const [phase, setPhase] = useState<BlogFormPhase>(mode === 'create' ? 'ready' : blogId ? 'loading' : 'missing-id');
  const [categories, setCategories] = useState<CategoryDto[]>([]);
  const [fields, setFields] = useState<BlogFields>(EMPTY_FIELDS);
  const [initialHtml, setInitialHtml] = useState('');
  /** Bumped to load other content into the editor (a restore, a recovered copy). */
  const [editorKey, setEditorKey] = useState(0);
  const [saved, setSaved] = useState<AdminBlogDto | null>(null);
  const [revisionsVersion, setRevisionsVersion] = useState(0);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  const { refreshText, watchRefresh } = useRefreshDrain();
  const { errors, setErrors, showErrors, clearError } = useFieldErrors(FIELD_INPUTS);
  const image = usePickedFile();
  const pdf = usePickedFile();
  const editorRef = useRef<RichTextEditorHandle>(null);
  const { setExisting: setExistingImage } = image;
  const { setExisting: setExistingPdf } = pdf;

  const loadBlog = useCallback(
    (blog: AdminBlogDto) => {
      setFields(fieldsFromBlog(blog));
      setExistingImage(blog.image || null);
      setExistingPdf(blog.pdf_drive_link || null);
      setInitialHtml(blog.content ?? '');
      setSaved(blog);
      setEditorKey((key) => key + 1);
    },
    [setExistingImage, setExistingPdf],
  );

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
          loadBlog(blog);
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
  }, [mode, blogId, loadBlog]);

  /** What the form would send now (null while the editor is not there). */
  const currentBody = (): FormBody | null => {
    const editor = editorRef.current;
    if (!editor?.isReady()) return null;
    return {
      title: fields.title,
      content: editor.getHTML(),
      content_source: editor.getMarkdown(),
      category_id: fields.category_id,
      image: image.existing ?? '',
      pdf_link: pdf.existing ?? '',
      isVideo: fields.isVideo,
      video_link: fields.isVideo === '1' ? fields.video_link : '',
      payment_link: fields.payment_link,
      form_name: fields.linkEnabled ? fields.form_name : '',
      form_link: fields.linkEnabled ? fields.form_link : '',
      status: fields.status,
      publish_at: fields.status === 'scheduled' ? localInputToIso(fields.publish_at) : '',
    };
  };

  const autosave = useAutosave({
    storageKey: phase === 'ready' ? `blog-form-copy:${mode === 'edit' ? (blogId ?? '') : 'new'}` : null,
    snapshot: currentBody,
    serverAutosave: (body) =>
      mode === 'edit' && saved?.status === 'draft' && body.status === 'draft' && !busy && !image.file && !pdf.file,
    saveToServer: async (body) => {
      const answer = await updateBlog(blogId ?? '', body, { autosave: true });
      setSaved(answer);
      setRevisionsVersion((v) => v + 1);
    },
  });

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

  const recover = () => {
    const copy = autosave.takeRecovery();
    if (!copy) return;
    setFields(fieldsFromBody(copy.body));
    setExistingImage(copy.body.image || null);
    setExistingPdf(copy.body.pdf_link || null);
    setInitialHtml(copy.body.content ?? '');
    setEditorKey((key) => key + 1);
    showSuccess(BLOG_FORM_MESSAGES.recovered);
  };

  /** A revision was restored on the server: the form shows the article as it now is. */
  const onRestored = (blog: AdminBlogDto & { live_ms?: number }) => {
    loadBlog(blog);
    autosave.markSaved(null);
    setRevisionsVersion((v) => v + 1);
    showSuccess(BLOG_FORM_MESSAGES.restored, blog.live_ms ?? null);
  };

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const body = currentBody() ?? {};
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
        const created = await createBlog(body);
        autosave.markSaved(body);
        flashMessage({ type: 'success', text: BLOG_FORM_MESSAGES.created, liveMs: created.live_ms ?? null });
        navigating = true;
        autosave.allowLeave();
        window.location.assign('/admin/blogs-manage');
        return;
      }
      const answer = await updateBlog(blogId ?? '', body);
      image.setExisting(answer.image || null);
      pdf.setExisting(answer.pdf_drive_link || null);
      setSaved(answer);
      autosave.markSaved(body);
      setRevisionsVersion((v) => v + 1);
      setProgress(null);
      showSuccess(BLOG_FORM_MESSAGES.updated, answer.live_ms ?? null);
      watchRefresh(answer.refresh);
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
    editorKey,
    editorRef,
    saved,
    revisionsVersion,
    autosave: { recovery: autosave.recovery, recover, discard: autosave.discardRecovery, text: autosave.autosaveText },
    onEditorReady: autosave.captureBaseline,
    onRestored,
    currentBody,
    image: { existing: image.existing, input: image.input, pick: pickImage, remove: image.remove },
    pdf: { existing: pdf.existing, input: pdf.input, pick: pickPdf, remove: pdf.remove },
    onSubmit,
  };
}
