import type { HighlighterGeneric } from 'shiki';
import { CODE_LANGUAGES, isCodeLanguage } from '../../shared/study-blocks.ts';

/**
 * Code blocks are highlighted on the server when the page renders (as Astro does for markdown
 * pages), in a light and a dark theme at once: each token carries both colours and the site's CSS
 * picks one with prefers-color-scheme. The GitHub "default" themes keep comments at 4.5:1 or more
 * on their backgrounds. The JavaScript regex engine avoids loading WebAssembly in the renderer.
 */
const THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;
const LANGS = Object.keys(CODE_LANGUAGES).filter((lang) => lang !== 'text');

let highlighter: Promise<HighlighterGeneric<string, string>> | null = null;

/*
 * Shiki is loaded by the first page with code, not with the module: most pages have none, and a
 * thread that loaded it holds about 14 MB more for good (each render worker, each serving thread).
 */
function getHighlighter(): Promise<HighlighterGeneric<string, string>> {
  highlighter ??= Promise.all([import('shiki'), import('shiki/engine/javascript')]).then(
    ([{ createHighlighter }, { createJavaScriptRegexEngine }]) =>
      createHighlighter({
        themes: Object.values(THEMES),
        langs: LANGS,
        engine: createJavaScriptRegexEngine(),
      }) as Promise<HighlighterGeneric<string, string>>,
  );
  return highlighter;
}

/**
 * The same page for the same article, however busy the machine: Shiki stops tokenizing a line
 * after 500 ms of wall-clock time by default, so on a starved render worker a line came out in
 * other colours. No time limit, and a line too long to tokenize cheaply is left plain (by its
 * length, which does not depend on the machine).
 */
const TOKENIZE = { tokenizeTimeLimit: 0, tokenizeMaxLineLength: 5_000 } as const;

/** A `<pre class="shiki">` block; an unknown language is shown as plain text in the same frame. */
export async function highlightCode(code: string, language: string | undefined): Promise<string> {
  const lang = isCodeLanguage(language) ? language : 'text';
  const shiki = await getHighlighter();
  return shiki.codeToHtml(code.replace(/\n$/, ''), { lang, themes: THEMES, ...TOKENIZE });
}
