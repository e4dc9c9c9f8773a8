/** The shapes the public API answers with, as the tests read them (docs/product.md#what-is-stored). */

export interface ApiComment {
  id: number;
  username: string;
  comment: string;
}

export interface ApiBlog {
  id: number;
  title: string;
  author: string;
  content: string;
  category_id: number | null;
  category_name: string | null;
  image: string | null;
  isVideo: string;
  video_link: string | null;
  pdf_drive_link: string | null;
  pay_link: string | null;
  form_name: string | null;
  form_link: string | null;
  created_at: string;
  clicks: number;
  comments?: ApiComment[];
}

export interface ApiCategory {
  id: number;
  name: string;
  sequence: number;
}
