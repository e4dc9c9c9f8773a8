import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { RichTextEditor, type RichTextEditorHandle } from '../../editor/RichTextEditor.tsx';
import { getInfoPage, messageOf, saveInfoPage, uploadImage } from '../../client/api.ts';
import { FieldError } from '../forms/FieldError.tsx';
import { clearMessage, showError, showSuccess } from '../../stores/admin.ts';
import {
  INFO_PAGE_SLUGS,
  INFO_PAGE_TITLES,
  validateInfoPageInput,
  type InfoPageSlug,
} from '../../shared/validation/info-page.ts';
import { useRefreshDrain } from './use-refresh-drain.ts';
import { RevisionsPanel } from './RevisionsPanel.tsx';
import { infoPageRevisionsUrl } from '../../client/revisions-api.ts';
import type { SavedInfoPage } from '../../shared/api-types.ts';
import { SaveStatus } from './SaveStatus.tsx';
import './publishing.css';
import { adminInfoPageHref } from '../../shared/site-map/paths.ts';

export const INFO_PAGE_FORM_MESSAGES = {
  loadFailed: 'Failed to load the page.',
  saveFailed: 'Failed to save the page.',
  saving: 'Saving page...',
} as const;

const uploadEditorImage = async (file: File) => (await uploadImage(file)).url;

/**
 * /admin/pages: About or Contact in the article editor (same toolbar, same image uploads, the
 * same sanitizing on the server) with the article screen's revisions below it. The page links
 * switch between the two.
 */
export default function InfoPageForm({ slug }: { slug: InfoPageSlug }) {
  const [phase, setPhase] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [initialHtml, setInitialHtml] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);
  // Bumped by each save and restore: the revisions list reloads, and a restore remounts the editor.
  const [revisionsVersion, setRevisionsVersion] = useState(0);
  const [editorKey, setEditorKey] = useState(0);
  const { refreshText, watchRefresh } = useRefreshDrain();
  const editorRef = useRef<RichTextEditorHandle>(null);
  const title = INFO_PAGE_TITLES[slug];

  useEffect(() => {
    const controller = new AbortController();
    getInfoPage(slug, controller.signal)
      .then((page) => {
        setInitialHtml(page.content);
        setPhase('ready');
      })
      .catch((failure: unknown) => {
        if (controller.signal.aborted) return;
        console.error(failure);
        setPhase('failed');
        showError(INFO_PAGE_FORM_MESSAGES.loadFailed);
      });
    return () => controller.abort();
  }, [slug]);

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy) return;
    const body = { content: editorRef.current?.getHTML() ?? '', content_source: editorRef.current?.getMarkdown() ?? '' };
    const found = validateInfoPageInput(body).errors;
    setError(found.content ?? found.content_source ?? null);
    if (found.content || found.content_source) return;
    clearMessage();
    setBusy(true);
    setProgress(INFO_PAGE_FORM_MESSAGES.saving);
    try {
      const saved = await saveInfoPage(slug, body);
      showSuccess(saved.message, saved.live_ms);
      watchRefresh(saved.refresh);
      setRevisionsVersion((v) => v + 1);
    } catch (failure) {
      console.error(failure);
      showError(messageOf(failure, INFO_PAGE_FORM_MESSAGES.saveFailed));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  /** A revision was restored on the server (a save of its own): the editor shows the page as it now is. */
  const onRestored = (saved: SavedInfoPage) => {
    setInitialHtml(saved.content);
    setEditorKey((key) => key + 1);
    setError(null);
    setRevisionsVersion((v) => v + 1);
    showSuccess(saved.message, saved.live_ms);
    watchRefresh(saved.refresh);
  };

  return (
    <>
      <nav aria-label="Pages">
        <ul className="page-switch">
          {INFO_PAGE_SLUGS.map((other) => (
            <li key={other}>
              <a className="btn" href={adminInfoPageHref(other)} aria-current={other === slug ? 'page' : undefined}>
                {INFO_PAGE_TITLES[other]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {phase === 'loading' && (
        <p className="loading" role="status">
          Loading the page...
        </p>
      )}
      {phase === 'failed' && <p>The page could not be loaded. Reload to try again.</p>}
      {phase === 'ready' && (
        <form className="admin-form blog-form" noValidate onSubmit={onSubmit} aria-busy={busy}>
          <div className="field">
            <span className="field-label" id="info-page-content-label">
              {title} page text
            </span>
            <RichTextEditor
              key={editorKey}
              initialHtml={initialHtml}
              label={`${title} page text`}
              handleRef={editorRef}
              uploadImage={uploadEditorImage}
              disabled={busy}
            />
            <FieldError id="info-page-content" message={error} />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Save {title} page
            </button>
            <a className="btn" href={`/${slug}`} target="_blank" rel="noopener">
              View the page<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            <SaveStatus progress={progress} refreshText={refreshText} />
          </div>
        </form>
      )}
      {phase === 'ready' && (
        <RevisionsPanel
          revisionsUrl={infoPageRevisionsUrl(slug)}
          version={revisionsVersion}
          current={() => ({ text: editorRef.current?.getMarkdown() ?? '' })}
          onRestored={onRestored}
        />
      )}
    </>
  );
}
