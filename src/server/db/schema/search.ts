// The search indexes and the texts read from PDFs.
export interface BlogsFtsTable {
  rowid: number;
  title: string;
  body: string;
  /** The attached PDF's text (migration 0003). */
  pdf: string | null;
}

/** The trigram index over text in scripts written without spaces (migration 0003). */
export type BlogsCjkTable = BlogsFtsTable;

/** One row: the word index's version, bumped with every write to it (migration 0010). */
export interface SearchIndexVersionTable {
  id: number;
  version: number;
}

export interface PdfTextsTable {
  path: string;
  text: string;
  pages: number;
  status: 'ok' | 'failed';
  extracted_at: string;
}
