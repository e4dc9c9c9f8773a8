/** Every editor shortcut, for the "?" help panel ("Mod" is Ctrl, or Cmd on a Mac). */
export const SHORTCUTS: [string, string][] = [
  ['Bold', 'Mod+B'],
  ['Italic', 'Mod+I'],
  ['Underline', 'Mod+U'],
  ['Strikethrough', 'Mod+Alt+X'],
  ['Heading 1 to 3', 'Mod+Alt+1 … 3'],
  ['Paragraph', 'Mod+Alt+0'],
  ['Bulleted list', 'Mod+Alt+8'],
  ['Numbered list', 'Mod+Alt+7'],
  ['Task list', 'Mod+Alt+9'],
  ['Indent / outdent list item', 'Tab / Shift+Tab'],
  ['Quote', 'Mod+Shift+B'],
  ['Inline code', 'Mod+E'],
  ['Code block', 'Mod+Alt+C'],
  ['Formula', 'Mod+Alt+M'],
  ['Formula as you type', '$x^2$ inline, $$x^2$$ alone on a line'],
  ['Table', 'Mod+Alt+T'],
  ['Next / previous table cell', 'Tab / Shift+Tab'],
  ['Callout', 'Mod+Alt+N'],
  ['Leave a callout', 'Enter on an empty last line'],
  ['Remove callout', 'Mod+Alt+Backspace'],
  ['Footnote', 'Mod+Alt+F'],
  ['Horizontal rule', 'Mod+Alt+H'],
  ['Undo / redo', 'Mod+Z / Mod+Shift+Z'],
  ['This list', 'Mod+/'],
];

/** Ctrl on most systems, Cmd on Apple ones (as ProseMirror's "Mod"). */
export function modKeyName(platform: string): string {
  return /Mac|iPhone|iPad/.test(platform) ? 'Cmd' : 'Ctrl';
}

/** Which study panel or action a key press asks for, if any (the rest is ProseMirror's). */
export type StudyKey = 'math' | 'table' | 'callout' | 'help' | 'rule';

export function studyKeyFor(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  code?: string;
}): StudyKey | null {
  if (!(event.ctrlKey || event.metaKey)) return null;
  if (!event.altKey && (event.key === '/' || event.key === '?')) return 'help';
  if (!event.altKey) return null;
  // With Alt held, macOS changes event.key ("µ" for M); the physical key still says which.
  const letter = event.code?.startsWith('Key') ? event.code.slice(3).toLowerCase() : event.key.toLowerCase();
  const map: Record<string, StudyKey> = { m: 'math', t: 'table', n: 'callout', h: 'rule' };
  return map[letter] ?? null;
}
