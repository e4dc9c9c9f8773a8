import { micromark, type Options } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

type HtmlExtension = NonNullable<Options['htmlExtensions']>[number];

/**
 * GFM's tag filter writes `<iframe`, `<script`, `<style`… of raw HTML in Markdown as the text
 * `&lt;iframe…`: a YouTube embed in a Ghost Markdown card or a Hugo post became visible markup in
 * the article. Raw HTML is written as it stands (micromark's own handler, put back after
 * `gfmHtml()`); the sanitizer then judges it like any imported HTML.
 */
const rawHtmlKept: HtmlExtension = {
  exit: {
    htmlFlowData(token) {
      this.raw(this.encode(this.sliceSerialize(token)));
    },
    htmlTextData(token) {
      this.raw(this.encode(this.sliceSerialize(token)));
    },
  },
};

/** Markdown (with GitHub's tables, task lists and strikethrough) as HTML, raw HTML kept for the sanitizer. */
export function markdownHtml(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml(), rawHtmlKept] });
}
