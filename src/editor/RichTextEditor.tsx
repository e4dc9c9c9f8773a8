import { commandsCtx, editorViewCtx, type CmdKey } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import {
  insertImageCommand,
  toggleEmphasisCommand,
  toggleStrongCommand,
  wrapInHeadingCommand,
} from '@milkdown/kit/preset/commonmark';
import { getHTML, getMarkdown } from '@milkdown/kit/utils';
import { Milkdown, MilkdownProvider, useEditor, useInstance } from '@milkdown/react';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
} from 'react';
import '@milkdown/kit/prose/view/style/prosemirror.css';
import './editor.css';
import { createEditor } from './create-editor.ts';
import { EditorToolbar, type ToolbarActions } from './EditorToolbar.tsx';
import {
  removeLinkCommand,
  setBackgroundColorCommand,
  setLinkCommand,
  setTextColorCommand,
  toggleUnderlineCommand,
} from './marks.ts';
import { EMPTY_TOOLBAR_STATE, readToolbarState, sameToolbarState } from './toolbar-state.ts';
import { studyKeyFor } from './study/shortcuts.ts';
import { StudyButtons, StudyPanels, type StudyPanel } from './study/StudyToolbar.tsx';
import { useStudyActions } from './use-study-actions.ts';

/** What the form around the editor reads when it saves. */
export interface RichTextEditorHandle {
  /** The document as HTML (what readers get, after the server's sanitizer). */
  getHTML: () => string;
  /** The document as markdown, stored as the editable source. */
  getMarkdown: () => string;
  /** Whether the editor has loaded its document (before that both getters answer ''). */
  isReady: () => boolean;
}

export interface RichTextEditorProps {
  /** Stored article HTML. Read once: remount the editor (key) to load another article. */
  initialHtml: string;
  label: string;
  describedBy?: string;
  handleRef: Ref<RichTextEditorHandle>;
  /** Uploads an image and answers its URL. */
  uploadImage: (file: File) => Promise<string>;
  disabled?: boolean;
  /** Called once the document is loaded, before the browser paints it (so before anyone can type). */
  onReady?: () => void;
}

export function RichTextEditor(props: RichTextEditorProps) {
  return (
    <MilkdownProvider>
      <EditorWithToolbar {...props} />
    </MilkdownProvider>
  );
}

function EditorWithToolbar({
  initialHtml,
  label,
  describedBy,
  handleRef,
  uploadImage,
  disabled = false,
  onReady,
}: RichTextEditorProps) {
  const [toolbar, setToolbar] = useState(EMPTY_TOOLBAR_STATE);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [studyPanel, setStudyPanel] = useState<StudyPanel | null>(null);
  const toolbarRef = useRef<HTMLDivElement>(null);
  const uploadRef = useRef(uploadImage);
  const disabledRef = useRef(disabled);
  const onReadyRef = useRef(onReady);
  useEffect(() => {
    uploadRef.current = uploadImage;
    disabledRef.current = disabled;
    onReadyRef.current = onReady;
  });

  // The factory runs once per mount (deps []); it reads the latest props through refs.
  useEditor(
    (root) =>
      createEditor({
        root,
        initialHtml,
        label,
        describedBy,
        uploadImage: (file) => uploadRef.current(file),
        onUploadError: setUploadError,
        onStateChange: (state) => {
          const next = readToolbarState(state);
          setToolbar((previous) => (sameToolbarState(previous, next) ? previous : next));
        },
        isEditable: () => !disabledRef.current,
      }),
    [],
  );
  const [loading, getInstance] = useInstance();

  /** Runs fn against the live editor (never while it is still loading) and returns to the text. */
  const run = useCallback(
    (fn: (ctx: Ctx) => void) => {
      const editor = getInstance();
      if (!editor) return;
      editor.action((ctx) => {
        fn(ctx);
        ctx.get(editorViewCtx).focus();
      });
    },
    [getInstance],
  );
  const call = useCallback(
    <T,>(key: CmdKey<T>, payload?: T) => run((ctx) => void ctx.get(commandsCtx).call(key, payload)),
    [run],
  );

  useImperativeHandle(
    handleRef,
    () => ({
      getHTML: () => getInstance()?.action(getHTML()) ?? '',
      getMarkdown: () => {
        // Pasted or stored HTML can hold shapes the markdown writer has no rule for (a table in
        // MathML): the article then saves its HTML with an empty source, never a crashed form.
        try {
          return getInstance()?.action(getMarkdown()) ?? '';
        } catch (error) {
          console.warn('The editor could not write this document as markdown; its HTML is kept.', error);
          return '';
        }
      },
      isReady: () => getInstance() !== undefined,
    }),
    [getInstance],
  );

  useLayoutEffect(() => {
    if (!loading) onReadyRef.current?.();
  }, [loading]);

  // ProseMirror reads `editable` on each update; nudge it when the form becomes busy or free.
  useEffect(() => {
    getInstance()?.action((ctx) => ctx.get(editorViewCtx).setProps({}));
  }, [disabled, loading, getInstance]);

  const actions = useMemo<ToolbarActions>(
    () => ({
      heading: (level) => call(wrapInHeadingCommand.key, level),
      bold: () => call(toggleStrongCommand.key),
      italic: () => call(toggleEmphasisCommand.key),
      underline: () => call(toggleUnderlineCommand.key),
      setLink: (href) => call(setLinkCommand.key, href),
      removeLink: () => call(removeLinkCommand.key),
      insertImage: async (file, alt) => {
        const src = await uploadRef.current(file);
        call(insertImageCommand.key, { src, alt });
      },
      textColor: (color) => call(setTextColorCommand.key, color),
      backgroundColor: (color) => call(setBackgroundColorCommand.key, color),
      focusEditor: () => run(() => {}),
    }),
    [call, run],
  );

  const studyActions = useStudyActions(call, run);
  // Shortcuts that open a study panel (the others are ProseMirror keymaps in the editor itself).
  const onKeyDown = (event: KeyboardEvent) => {
    const wanted = studyKeyFor(event);
    if (!wanted || !(event.target as HTMLElement).closest('.editor-content')) return;
    event.preventDefault();
    if (wanted === 'rule') studyActions.rule();
    else setStudyPanel(wanted);
  };

  return (
    <div className="rich-editor" data-ready={loading ? undefined : 'true'} aria-busy={loading} onKeyDown={onKeyDown}>
      <EditorToolbar
        state={toolbar}
        actions={actions}
        disabled={loading || disabled}
        toolbarRef={toolbarRef}
        extra={<StudyButtons state={toolbar} actions={studyActions} panel={studyPanel} setPanel={setStudyPanel} />}
      />
      <StudyPanels
        state={toolbar}
        actions={studyActions}
        panel={studyPanel}
        setPanel={setStudyPanel}
        toolbar={() => toolbarRef.current}
      />
      {loading && <p className="editor-loading">Loading editor...</p>}
      {uploadError && (
        <p className="field-error" role="alert">
          {uploadError}{' '}
          <button type="button" className="link-button" onClick={() => setUploadError(null)}>
            Dismiss
          </button>
        </p>
      )}
      <Milkdown />
    </div>
  );
}
