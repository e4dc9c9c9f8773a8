import temml from 'temml';

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

export function typesetFormula(source: string, display: boolean): TypesetFormula {
  const tex = source.trim();
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
