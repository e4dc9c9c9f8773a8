/**
 * A stored page's tags, each beside the version it had when the page was rendered
 * (`versions[i]` is `names[i]`'s). The file keeps them as a JSON object (`{"blog:12":3,"nav":5}`).
 *
 * Held as two arrays, not as that object: `JSON.parse` made every distinct tag name (`blog:9803`,
 * `link:4990`) a property key V8 interns, with a shape of its own, which cost 4-7 µs a page read
 * from the file, 5% of a serving thread under random readers. Read by hand, under 1 µs.
 */
export interface PageTags {
  readonly names: readonly string[];
  readonly versions: readonly number[];
}

/** Tags from their names and the version each has now. */
export function pageTagsOf(names: readonly string[], versionOf: (name: string) => number): PageTags {
  return { names: [...names], versions: names.map(versionOf) };
}

/** The version a page recorded for this tag, or undefined when it does not carry it. */
export function versionIn(tags: PageTags, name: string): number | undefined {
  const at = tags.names.indexOf(name);
  return at === -1 ? undefined : tags.versions[at];
}

/** The tags as the file keeps them. */
export function pageTagsText(tags: PageTags): string {
  let text = '{';
  for (let i = 0; i < tags.names.length; i++) {
    if (i > 0) text += ',';
    text += `${JSON.stringify(tags.names[i])}:${tags.versions[i]}`;
  }
  return text + '}';
}

const OPEN = 123; // {
const CLOSE = 125; // }
const QUOTE = 34; // "
const COLON = 58; // :
const COMMA = 44; // ,
const BACKSLASH = '\\';
const ZERO = 48;
const NINE = 57;
/** Digits a version may have and still be exact as a number. */
const MOST_DIGITS = 15;

/**
 * The tags of a row's text, or null when it does not read as tags. What this server writes
 * (plain names, whole versions) is read by hand; anything else (an escaped name) through JSON.
 */
export function readPageTagsText(text: string): PageTags | null {
  return readPlain(text) ?? readAsJson(text);
}

function readPlain(text: string): PageTags | null {
  const names: string[] = [];
  const versions: number[] = [];
  if (text.charCodeAt(0) !== OPEN) return null;
  if (text.length === 2 && text.charCodeAt(1) === CLOSE) return { names, versions };
  let at = 1;
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return null;
    const end = text.indexOf('"', at + 1);
    if (end === -1) return null;
    const name = text.slice(at + 1, end);
    if (name.includes(BACKSLASH) || text.charCodeAt(end + 1) !== COLON) return null;
    let version = 0;
    let digits = 0;
    let next = end + 2;
    for (let code = text.charCodeAt(next); code >= ZERO && code <= NINE; code = text.charCodeAt(++next)) {
      version = version * 10 + (code - ZERO);
      digits++;
    }
    if (digits === 0 || digits > MOST_DIGITS) return null;
    names.push(name);
    versions.push(version);
    const after = text.charCodeAt(next);
    if (after === COMMA) at = next + 1;
    else return after === CLOSE && next === text.length - 1 ? { names, versions } : null;
  }
}

function readAsJson(text: string): PageTags | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const names: string[] = [];
  const versions: number[] = [];
  for (const [name, version] of Object.entries(parsed)) {
    if (typeof version !== 'number' || !Number.isFinite(version)) return null;
    names.push(name);
    versions.push(version);
  }
  return { names, versions };
}

/** Whether two pages carry the same tag names, whatever their versions and order. */
export function sameTagNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (const name of a) if (!b.includes(name)) return false;
  return true;
}
