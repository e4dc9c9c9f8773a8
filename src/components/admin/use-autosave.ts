import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * No lost work in the blog form. Four times a second it compares what the form holds with what was last
 * saved: a change is kept in localStorage at once (so a crash or a closed tab loses nothing, and
 * the form offers the copy back next time), a draft also goes to the server once the admin has
 * stopped typing for IDLE_MS, and leaving with unsaved changes asks first.
 *
 * The first look after the form is filled is the baseline (the editor's own HTML of the loaded
 * article, which may differ in spacing from the stored HTML); a local copy that differs from it
 * is offered back.
 */

export const IDLE_MS = 3_000;
/**
 * While the form holds unsaved changes, the server hears from it this often: it stops its render
 * workers after a quiet minute, and the save's pages would first wait for them to start again.
 * Any admin request starts them; this one also reports the refresh, and nothing reads it.
 */
export const SAVE_COMING_EVERY_MS = 20_000;
const SAVE_COMING_URL = '/api/admin/page-refresh';
// Often enough that the baseline is the loaded article, not the first keystrokes after it.
const TICK_MS = 250;

export type FormBody = Record<string, string>;

export interface LocalCopy {
  savedAt: string;
  body: FormBody;
}

interface AutosaveOptions {
  /** localStorage key of this form's copy; null while the form is not ready. */
  storageKey: string | null;
  /** What the form holds now, or null while the editor is not there. */
  snapshot: () => FormBody | null;
  /** Whether an idle copy may go to the server (an existing draft). */
  serverAutosave: (body: FormBody) => boolean;
  saveToServer: (body: FormBody) => Promise<void>;
}

function readCopy(key: string): LocalCopy | null {
  try {
    const raw = window.localStorage.getItem(key);
    const copy = raw ? (JSON.parse(raw) as LocalCopy) : null;
    return copy && typeof copy.savedAt === 'string' && copy.body && typeof copy.body === 'object' ? copy : null;
  } catch {
    return null;
  }
}

function writeCopy(key: string, copy: LocalCopy | null): void {
  try {
    if (copy) window.localStorage.setItem(key, JSON.stringify(copy));
    else window.localStorage.removeItem(key);
  } catch {
    // Storage full or off (private mode): the server copy and the leave warning still protect the work.
  }
}

const timeOfDay = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short' });

export function useAutosave({ storageKey, snapshot, serverAutosave, saveToServer }: AutosaveOptions) {
  const [recovery, setRecovery] = useState<LocalCopy | null>(null);
  const [dirty, setDirty] = useState(false);
  const [autosaveText, setAutosaveText] = useState('');
  const baseline = useRef<string | null>(null);
  const last = useRef<{ text: string; at: number } | null>(null);
  const saving = useRef(false);
  // Set just before the form itself navigates away after a save: React has not re-rendered yet,
  // so the leave warning's listener is still attached and must stand aside on its own.
  const leaving = useRef(false);
  const latest = useRef({ snapshot, serverAutosave, saveToServer });
  useEffect(() => {
    latest.current = { snapshot, serverAutosave, saveToServer };
  });
  const recoveryOpen = recovery !== null;

  /** The editor has loaded: what the form holds now is the saved state (unless a baseline is already set). */
  const captureBaseline = useCallback(() => {
    if (baseline.current !== null || !storageKey) return;
    const body = latest.current.snapshot();
    if (!body) return;
    const text = JSON.stringify(body);
    baseline.current = text;
    const copy = readCopy(storageKey);
    if (copy && JSON.stringify(copy.body) !== text) setRecovery(copy);
  }, [storageKey]);

  useEffect(() => {
    if (!storageKey) return;
    const tick = () => {
      const body = latest.current.snapshot();
      if (!body || saving.current) return;
      const text = JSON.stringify(body);
      if (baseline.current === null) {
        captureBaseline();
        return;
      }
      if (recoveryOpen) return; // the offered copy stays until the admin chooses
      const changed = text !== baseline.current;
      setDirty(changed);
      if (!changed) {
        last.current = null;
        writeCopy(storageKey, null);
        return;
      }
      const now = Date.now();
      if (last.current?.text !== text) {
        last.current = { text, at: now };
        writeCopy(storageKey, { savedAt: new Date(now).toISOString(), body });
        return;
      }
      if (now - last.current.at < IDLE_MS || !latest.current.serverAutosave(body)) return;
      saving.current = true;
      latest.current
        .saveToServer(body)
        .then(() => {
          baseline.current = text;
          writeCopy(storageKey, null);
          setDirty(false);
          setAutosaveText(`Draft saved automatically at ${timeOfDay.format(new Date())}.`);
        })
        .catch(() => setAutosaveText('Automatic save failed; your changes are kept in this browser.'))
        .finally(() => {
          saving.current = false;
        });
    };
    const timer = window.setInterval(tick, TICK_MS);
    return () => window.clearInterval(timer);
  }, [storageKey, recoveryOpen, captureBaseline]);

  // A save may come: the server keeps its render workers started (a hidden tab does not).
  useEffect(() => {
    if (!dirty) return;
    const tell = () => {
      if (document.visibilityState !== 'visible') return;
      void fetch(SAVE_COMING_URL, { credentials: 'same-origin', cache: 'no-store' }).catch(() => undefined);
    };
    tell();
    const timer = window.setInterval(tell, SAVE_COMING_EVERY_MS);
    return () => window.clearInterval(timer);
  }, [dirty]);

  // Leaving (closing the tab, a link, a reload) with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  /** A save went through: what it sent is the new baseline, and the local copy is done with. */
  const markSaved = useCallback(
    (body: FormBody | null) => {
      baseline.current = body ? JSON.stringify(body) : null;
      last.current = null;
      setDirty(false);
      // A manual save supersedes the last automatic one: its "Draft saved automatically" line goes.
      setAutosaveText('');
      if (storageKey) writeCopy(storageKey, null);
    },
    [storageKey],
  );

  /** The form is about to leave on its own after a save: no "Leave site?" question. */
  const allowLeave = useCallback(() => {
    leaving.current = true;
  }, []);

  const takeRecovery = useCallback(() => {
    const copy = recovery;
    setRecovery(null);
    return copy;
  }, [recovery]);

  const discardRecovery = useCallback(() => {
    setRecovery(null);
    if (storageKey) writeCopy(storageKey, null);
  }, [storageKey]);

  return { recovery, takeRecovery, discardRecovery, markSaved, allowLeave, captureBaseline, dirty, autosaveText };
}
