import { IMAGE_MAX_BYTES, PDF_MAX_BYTES } from '../../shared/validation/uploads.ts';

/** How large a request body each endpoint reads before answering 413, in one place. */
export const BODY_LIMITS = {
  /** Any other JSON body. */
  json: 1024 * 1024,
  /** Room for 500 KB of HTML plus 500 KB of editor source once JSON escaping has grown them. */
  blog: 3 * 1024 * 1024,
  /** Room for a 5000-character comment even if every character arrives as a JSON \u escape. */
  comment: 128 * 1024,
  category: 16 * 1024,
  /** A library's ids (at most 100) or a reading position. */
  library: 16 * 1024,
  /** Login and sign-up: an email, a name and a password. */
  account: 16 * 1024,
  /** Uploads: the browser checks the same limits before sending (src/shared/validation/uploads.ts). */
  image: IMAGE_MAX_BYTES,
  pdf: PDF_MAX_BYTES,
  /**
   * A file for the admin's Import screen, sent as the body itself: under the adapter's own limit
   * for every request (astro.config.mjs, 21 MB). Larger files go through `npm run import`.
   */
  import: 20 * 1024 * 1024,
} as const;
