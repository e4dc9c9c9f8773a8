import fs from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { siblingModuleUrl } from '../module-file.ts';
import type { PdfTextResult } from '../ports.ts';

export type { PdfTextExtractor, PdfTextResult } from '../ports.ts';

/** A long or hostile PDF must not tie up a thread: the first pages, a time limit, a text cap. */
export const PDF_TEXT_LIMITS = { maxPages: 50, timeoutMs: 10_000, maxChars: 200_000 };

const failed: PdfTextResult = { text: '', pages: 0, ok: false };

/** Reads the text of the first `maxPages` pages (pdf.js through unpdf: no native code). */
export async function readPdfText(bytes: Uint8Array, limits = PDF_TEXT_LIMITS): Promise<PdfTextResult> {
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(bytes);
  try {
    const parts: string[] = [];
    let length = 0;
    const last = Math.min(pdf.numPages, limits.maxPages);
    for (let n = 1; n <= last && length < limits.maxChars; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join('');
      parts.push(text);
      length += text.length;
    }
    return { text: parts.join('\n').slice(0, limits.maxChars), pages: pdf.numPages, ok: true };
  } finally {
    await pdf.cleanup();
  }
}

/** In this thread, bounded in time (the work may go on in the background; its answer is dropped). */
export async function extractPdfTextInProcess(file: string, limits = PDF_TEXT_LIMITS): Promise<PdfTextResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<PdfTextResult>((resolve) => (timer = setTimeout(() => resolve(failed), limits.timeoutMs)));
  try {
    const bytes = new Uint8Array(await fs.readFile(file));
    return await Promise.race([readPdfText(bytes, limits), timeout]);
  } catch {
    return failed;
  } finally {
    clearTimeout(timer);
  }
}

/** In a worker thread of its own, stopped at the time limit. A missing file costs no thread. */
export async function extractPdfTextOffThread(file: string, limits = PDF_TEXT_LIMITS): Promise<PdfTextResult> {
  try {
    await fs.access(file);
  } catch {
    return failed;
  }
  return new Promise((resolve) => {
    const worker = new Worker(siblingModuleUrl(import.meta.url, './pdf-text-worker'), { workerData: { file, limits } });
    let settled = false;
    const finish = (result: PdfTextResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => finish(failed), limits.timeoutMs);
    worker.once('message', (result: PdfTextResult) => finish(result));
    worker.once('error', () => finish(failed));
    worker.once('exit', () => finish(failed));
  });
}
