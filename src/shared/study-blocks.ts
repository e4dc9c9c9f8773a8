/**
 * The study blocks the editor writes and the article page typesets (docs/study-content.md):
 * shared by the editor, the sanitizer and the renderer so the three agree on one list.
 */

/** Callout kinds, with the title readers see above the box. */
export const CALLOUT_TITLES = {
  note: 'Note',
  tip: 'Tip',
  warning: 'Warning',
  remember: 'Remember',
  example: 'Worked example',
} as const;

export type CalloutKind = keyof typeof CALLOUT_TITLES;
export const CALLOUT_KINDS = Object.keys(CALLOUT_TITLES) as CalloutKind[];

export function isCalloutKind(value: string | undefined): value is CalloutKind {
  return value !== undefined && Object.hasOwn(CALLOUT_TITLES, value);
}

/** Languages a code block can be highlighted in (the editor's picker offers these). */
export const CODE_LANGUAGES = {
  text: 'Plain text',
  python: 'Python',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  csharp: 'C#',
  html: 'HTML',
  css: 'CSS',
  sql: 'SQL',
  bash: 'Shell',
  json: 'JSON',
} as const;

export type CodeLanguage = keyof typeof CODE_LANGUAGES;

export function isCodeLanguage(value: string | undefined): value is CodeLanguage {
  return value !== undefined && Object.hasOwn(CODE_LANGUAGES, value);
}
