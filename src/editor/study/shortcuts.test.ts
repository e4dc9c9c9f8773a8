import { describe, expect, it } from 'vitest';
import { modKeyName, SHORTCUTS, studyKeyFor } from './shortcuts.ts';

const key = (over: Partial<Parameters<typeof studyKeyFor>[0]>) => ({
  key: '',
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...over,
});

describe('studyKeyFor', () => {
  it('opens the study panels with Mod+Alt and a letter, by physical key (macOS changes event.key with Alt)', () => {
    expect(studyKeyFor(key({ key: 'm', code: 'KeyM', ctrlKey: true, altKey: true }))).toBe('math');
    expect(studyKeyFor(key({ key: 'µ', code: 'KeyM', metaKey: true, altKey: true }))).toBe('math');
    expect(studyKeyFor(key({ key: 't', code: 'KeyT', ctrlKey: true, altKey: true }))).toBe('table');
    expect(studyKeyFor(key({ key: 'n', code: 'KeyN', ctrlKey: true, altKey: true }))).toBe('callout');
    expect(studyKeyFor(key({ key: 'h', code: 'KeyH', ctrlKey: true, altKey: true }))).toBe('rule');
    expect(studyKeyFor(key({ key: '/', ctrlKey: true }))).toBe('help');
  });

  it('leaves typing and the editor’s own shortcuts alone', () => {
    expect(studyKeyFor(key({ key: 'm', code: 'KeyM' }))).toBeNull();
    expect(studyKeyFor(key({ key: '?', code: 'Slash' }))).toBeNull();
    expect(studyKeyFor(key({ key: 'm', code: 'KeyM', ctrlKey: true }))).toBeNull();
    expect(studyKeyFor(key({ key: 'b', code: 'KeyB', ctrlKey: true, altKey: true }))).toBeNull();
  });

  it('lists every study shortcut in the help panel, with the platform’s key name', () => {
    const listed = SHORTCUTS.map(([, keys]) => keys).join(' ');
    for (const keys of ['Mod+Alt+M', 'Mod+Alt+T', 'Mod+Alt+N', 'Mod+Alt+H', 'Mod+/', 'Mod+Alt+9', 'Mod+Alt+F'])
      expect(listed).toContain(keys);
    expect(modKeyName('MacIntel')).toBe('Cmd');
    expect(modKeyName('Linux x86_64')).toBe('Ctrl');
  });
});
