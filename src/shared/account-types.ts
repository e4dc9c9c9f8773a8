/** What the reader's account endpoints answer (`/api/account`), shared by the server and `/account`. */

export interface AccountSessionDto {
  id: string;
  /** The session of the browser asking. */
  current: boolean;
  browser: string;
  created_at: string;
  last_used_at: string;
}

export interface AccountAnswer {
  username: string;
  email: string;
  is_admin: boolean;
  /** The site sends mail (an email change is confirmed by a mailed link). */
  mail: boolean;
  sessions: AccountSessionDto[];
  /** What deleting the account does to its comments (the owner's choice in Settings). */
  deleted_comments: 'rename' | 'remove';
  /** Admins: two-factor sign-in is on for this account. */
  two_factor: boolean;
  /** Admins: the owner requires two-factor sign-in and this account has not set it up. */
  two_factor_required: boolean;
}

export interface TwoFactorEnrolment {
  secret: string;
  uri: string;
  qr_svg: string;
}
