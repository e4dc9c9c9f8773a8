import type Temml from 'temml';
import { RecencyMap } from '../../shared/recency-map.ts';

/**
 * Formulas are typeset on the server, once per page render, into MathML that browsers lay out
 * and screen readers read without any script. The TeX source rides along as an annotation
 * (copy-paste, search engines). Untrusted commands (\href, \url, \htmlClass...) are refused:
 * `trust` stays false, so they render as red source text, never as links.
 */
const LIMITS = { maxSize: [20, 20] as [number, number], maxExpand: 500 };

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface TypesetFormula {
  html: string;
  /** The parser's message when the TeX is invalid; the page then shows the source, marked. */
  error: string | null;
}

/*
 * A page is rendered again after every change it shows (a comment, an edit, a setting), and the
 * feed renders its twenty articles again after each save: the formulas are mostly the same each
 * time, so typeset ones are kept (most recently used first, bounded in count and size).
 */
const CACHE_ENTRIES = 2000;
const CACHE_MAX_TEX = 2000;
const cache = new RecencyMap<string, TypesetFormula>();

/** Empties the formula cache (the benchmark's cold renders). */
export function clearFormulaCache(): void {
  cache.clear();
}

/** Typesets one formula (the source trimmed), inline or display. */
export type FormulaTypesetter = (source: string, display: boolean) => TypesetFormula;

/*
 * Temml is loaded by the first page with a formula, not with the module: most pages have none,
 * and a thread that loaded it holds about 7 MB more for good (each render worker, each serving
 * thread).
 */
let temmlModule: Promise<typeof Temml> | null = null;

export async function loadFormulaTypesetter(): Promise<FormulaTypesetter> {
  temmlModule ??= import('temml').then((loaded) => loaded.default);
  const temml = await temmlModule;
  return (source, display) => typesetFormula(temml, source, display);
}

function typesetFormula(temml: typeof Temml, source: string, display: boolean): TypesetFormula {
  const tex = source.trim();
  if (tex.length > CACHE_MAX_TEX) return typeset(temml, tex, display);
  const key = `${display ? 'D' : 'I'}${tex}`;
  const kept = cache.get(key);
  if (kept) return kept;
  const made = typeset(temml, tex, display);
  cache.set(key, made);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.oldest()!);
  return made;
}

function typeset(temml: typeof Temml, tex: string, display: boolean): TypesetFormula {
  try {
    const mathml = temml.renderToString(tex, {
      displayMode: display,
      annotate: true,
      throwOnError: true,
      trust: false,
      ...LIMITS,
    });
    return { html: mathml, error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^ParseError:\s*/, '') : 'invalid formula';
    const html =
      `<span class="math-error"><code>${escapeHtml(tex)}</code> ` +
      `<span class="math-error-message">(formula error: ${escapeHtml(message)})</span></span>`;
    return { html, error: message };
  }
}
