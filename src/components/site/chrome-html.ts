/**
 * The header's and footer's HTML as rendered for one state of the data they show, by part and
 * variant (chrome-patch.ts): every page of a pre-render or a refresh shows the same few. The
 * categories and the settings are read once per database state (`cachedRead`: the same objects
 * until the next write), so a change brings new objects and an empty cache here, and the old HTML
 * goes with the old objects. Typed by identity only: this folder's modules stay out of src/server.
 */
const byData = new WeakMap<object, WeakMap<object, Map<string, string>>>();

/** The HTML rendered so far for these two objects of data (the categories, the settings), by `part:variant`. */
export function chromeHtmlFor(chrome: object, settings: object): Map<string, string> {
  let bySettings = byData.get(chrome);
  if (!bySettings) byData.set(chrome, (bySettings = new WeakMap()));
  let html = bySettings.get(settings);
  if (!html) bySettings.set(settings, (html = new Map()));
  return html;
}
