// A reader's library: saved articles and where they stopped.
/** An article a reader saved to their library (migration 0012). */
export interface SavedArticlesTable {
  user_id: number;
  blog_id: number;
  saved_at: string;
}

/** Where a reader stopped in an article: `position` 0 to 1 of its length (migration 0012). */
export interface ReadingProgressTable {
  user_id: number;
  blog_id: number;
  position: number;
  read_at: string;
}
