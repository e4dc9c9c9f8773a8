import path from 'node:path';
import type { AppContext } from '../context.ts';
import { findPdfText, listPdfLinksWithoutText, refreshPdfColumn, savePdfText } from '../db/repositories/search.ts';
import { uploadedPdfPath } from '../db/search-text.ts';
import { extractPdfTextInProcess } from './pdf-text.ts';

/**
 * Attached PDFs in the search: each uploaded PDF's text is read once (kept in pdf_texts by path)
 * and copied into the index row of every article it is attached to.
 */

async function extractAndIndex(app: AppContext, pdfPath: string): Promise<void> {
  const extract = app.pdfText ?? extractPdfTextInProcess;
  const result = await extract(path.join(app.config.uploadsDir, pdfPath));
  await app.db.transaction().execute(async (trx) => {
    await savePdfText(trx, pdfPath, result);
    await refreshPdfColumn(trx, pdfPath, result.text);
  });
}

/**
 * After a blog save commits: a newly attached PDF's text goes into its index row. The save's own
 * transaction already copied the text of a PDF read before; this reads a PDF never read yet.
 */
export async function indexAttachedPdf(app: AppContext, blog: { pdf_drive_link: string | null }): Promise<void> {
  const pdfPath = uploadedPdfPath(blog.pdf_drive_link);
  if (!pdfPath || (await findPdfText(app.db, pdfPath))) return;
  try {
    await extractAndIndex(app, pdfPath);
  } catch (error) {
    console.error(`[search] could not index the text of ${pdfPath}:`, error);
  }
}

/** At start: PDFs attached before their text was searchable (migration 0003) are read now. */
export async function indexUnreadPdfs(app: AppContext, signal?: AbortSignal): Promise<number> {
  let done = 0;
  for (const link of await listPdfLinksWithoutText(app.db)) {
    if (signal?.aborted) break;
    try {
      await extractAndIndex(app, uploadedPdfPath(link)!);
      done++;
    } catch (error) {
      console.error(`[search] could not index the text of ${link}:`, error);
    }
    // Each PDF's write runs on the serving thread: readers' requests go between them.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return done;
}
