import type { ReactNode } from 'react';

/** The toolbar's own icons; the buttons carry the accessible names. */

/** The line-icon frame every toolbar icon shares: 18px, drawn in the text colour. */
function LineIcon({ children }: { children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

export function LinkIcon() {
  return (
    <LineIcon>
      <path d="M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7" />
      <path d="M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7" />
    </LineIcon>
  );
}

export function ImageIcon() {
  return (
    <LineIcon>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <circle cx="9" cy="10" r="2" />
      <path d="m21 16-5-5-9 9" />
    </LineIcon>
  );
}

const HEADING_DIGITS: Record<number, string> = {
  1: 'M16 11l3-2v10',
  2: 'M15.5 11.5a2.5 2.5 0 1 1 4.4 1.6L15.5 19h5',
  3: 'M15.5 9h4.5l-2.6 3.3a3 3 0 1 1-2.1 5.2',
};

/** "H" and the level, drawn: the button's name is "Heading N" and an icon cannot contradict it. */
export function HeadingIcon({ level }: { level: number }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M3 5v14M11 5v14M3 12h8" />
      <path d={HEADING_DIGITS[level] ?? ''} />
    </svg>
  );
}
