// A reader's own library: saved articles, recent reads, own comments.
/** A saved article in a reader's library (GET /api/library, PUT /api/library/saved/:id). */
export interface SavedArticleDto {
  id: number;
  title: string;
  category_name: string | null;
  image: string | null;
  /** The attached PDF (`pdf_drive_link`), or null. */
  pdf_link: string | null;
  updated_at: string;
  saved_at: string;
}

/** An article the reader read lately and where they stopped: `position` 0 to 1 of its length. */
export interface RecentReadDto {
  id: number;
  title: string;
  position: number;
  read_at: string;
}

/** One of the reader's own comments, in any status (held ones are only ever shown to them). */
export interface OwnCommentDto {
  id: number;
  blog_id: number;
  blog_title: string;
  comment: string;
  status: 'approved' | 'pending' | 'spam';
  created_at: string;
}

/** GET /api/library: the signed-in reader's own library. */
export interface LibraryAnswer {
  saved: SavedArticleDto[];
  recent: RecentReadDto[];
  comments: OwnCommentDto[];
}

/** POST /api/library/saved: the library after merging a device's saves; `skipped`: ids no reader can open. */
export interface LibrarySyncAnswer {
  saved: SavedArticleDto[];
  skipped: number[];
}
