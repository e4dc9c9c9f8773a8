import { defaultValueCtx, Editor, editorViewOptionsCtx, rootCtx } from '@milkdown/kit/core';
import { clipboard } from '@milkdown/kit/plugin/clipboard';
import { history } from '@milkdown/kit/plugin/history';
import { upload, uploadConfig } from '@milkdown/kit/plugin/upload';
import { commonmark } from '@milkdown/kit/preset/commonmark';
import { gfm } from '@milkdown/kit/preset/gfm';
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import { Plugin, PluginKey, type EditorState } from '@milkdown/kit/prose/state';
import { $prose } from '@milkdown/kit/utils';
import { addStyledNodePrinters, styledMarks } from './marks.ts';
import { mathInputRules } from './math-input-rules.ts';
import { cleanPastedHtml } from './paste-cleanup.ts';
import { studyCommands } from './study-commands.ts';
import { studyNodes } from './study-nodes.ts';

export interface CreateEditorOptions {
  root: HTMLElement;
  /** The article's stored HTML; parsed straight into the document, so nothing is lost on the way. */
  initialHtml: string;
  /** Accessible name of the editable area. */
  label: string;
  /** Id of an element describing the editable area (help or error text), if any. */
  describedBy?: string;
  uploadImage: (file: File) => Promise<string>;
  onUploadError: (message: string) => void;
  onStateChange: (state: EditorState) => void;
  isEditable: () => boolean;
}

/**
 * Parses HTML in an inert document: no image loads, no handlers run, whatever the HTML holds.
 * (innerHTML on an element of the live page would fetch images and fire their onerror.)
 */
export function parseHtmlInert(html: string): HTMLElement {
  return new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html').body;
}

/** "diagram-of-cells.png" becomes "diagram of cells": a start for the image's description. */
export function altFromFileName(name: string): string {
  return name
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
}

/** The Milkdown editor of the admin blog form: commonmark + GFM, our marks, uploads and state reports. */
export function createEditor(options: CreateEditorOptions): Editor {
  const stateReporter = $prose(
    () =>
      new Plugin({
        key: new PluginKey('STUDY_SITE_TOOLBAR_STATE'),
        view: (view) => {
          options.onStateChange(view.state);
          return { update: (updated) => options.onStateChange(updated.state) };
        },
      }),
  );

  return Editor.make()
    .config((ctx) => {
      ctx.set(rootCtx, options.root);
      ctx.set(defaultValueCtx, { type: 'html', dom: parseHtmlInert(options.initialHtml) });
      ctx.update(editorViewOptionsCtx, (previous) => ({
        ...previous,
        editable: () => options.isEditable(),
        transformPastedHTML: cleanPastedHtml,
        attributes: {
          'aria-label': options.label,
          'aria-multiline': 'true',
          class: 'editor-content',
          ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
        },
      }));
      addStyledNodePrinters(ctx);
      // Pasted or dropped images go to the server like the toolbar's; never inline base64.
      ctx.update(uploadConfig.key, (previous) => ({
        ...previous,
        uploader: async (files, schema) => {
          const nodes: ProseNode[] = [];
          for (const file of Array.from(files)) {
            if (!file.type.startsWith('image/')) continue;
            try {
              const src = await options.uploadImage(file);
              const node = schema.nodes.image?.createAndFill({ src, alt: altFromFileName(file.name) });
              if (node) nodes.push(node);
            } catch (error) {
              options.onUploadError(error instanceof Error ? error.message : 'The image could not be uploaded.');
            }
          }
          return nodes;
        },
      }));
    })
    .use(commonmark)
    .use(gfm)
    .use(history)
    .use(clipboard)
    .use(upload)
    .use(styledMarks)
    .use(studyNodes)
    .use(mathInputRules)
    .use(studyCommands)
    .use(stateReporter);
}
