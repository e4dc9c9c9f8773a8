import { parse as parseYaml } from 'yaml';

/**
 * A Markdown file's front matter (YAML between `---`, TOML between `+++`) and how its fields are
 * read: text, lists, the first of several names, dates, authors. The static generators differ in
 * names and shapes; these readers accept each one's.
 */

const MAX_FRONT_MATTER_BYTES = 64 * 1024;

export type Fields = Record<string, unknown>;

/** Hugo's TOML front matter, the flat part of it: `key = "text"`, numbers, booleans, dates, `[lists]`. */
export function parseTomlFrontMatter(text: string): Fields {
  const fields: Fields = {};
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) break; // a [table]: what follows belongs to it, not to the page
    const match = /^\s*([A-Za-z0-9_-]+)\s*=\s*(.+?)\s*$/.exec(line);
    if (!match) continue;
    fields[match[1]!] = tomlValue(match[2]!);
  }
  return fields;
}

function tomlValue(raw: string): unknown {
  if (raw.startsWith('[')) {
    const inner = raw.replace(/^\[|\]$/g, '');
    return [...inner.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => (m[1] !== undefined ? unquote(m[1]) : m[2]!));
  }
  if (raw.startsWith('"')) return unquote(raw.replace(/^"|"\s*(#.*)?$/g, ''));
  if (raw.startsWith("'")) return raw.replace(/^'|'\s*(#.*)?$/g, '');
  const bare = raw.replace(/\s+#.*$/, '');
  if (bare === 'true' || bare === 'false') return bare === 'true';
  return bare;
}

function unquote(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

/** The front matter (YAML between `---`, TOML between `+++`) and the body after it. */
export function splitFrontMatter(text: string): { fields: Fields; body: string } {
  const source = text.replace(/^\uFEFF/, '');
  const match = /^(---|\+\+\+)[ \t]*\r?\n([\s\S]*?)\r?\n\1[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return { fields: {}, body: source };
  const raw = match[2]!;
  if (raw.length > MAX_FRONT_MATTER_BYTES) throw new Error('front matter over 64 KB');
  let fields: unknown;
  if (match[1] === '+++') fields = parseTomlFrontMatter(raw);
  // No custom tags, few aliases: a YAML "billion laughs" stops at the alias limit.
  else fields = parseYaml(raw, { maxAliasCount: 20, schema: 'core', uniqueKeys: false });
  return {
    fields: fields && typeof fields === 'object' && !Array.isArray(fields) ? (fields as Fields) : {},
    body: source.slice(match[0].length),
  };
}

export const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

export function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text).filter(Boolean);
  const one = text(value);
  // Jekyll allows `categories: study notes` as a space-separated list.
  return one ? one.split(/\s*,\s*|\s+/).filter(Boolean) : [];
}

export function firstOf(fields: Fields, names: string[]): unknown {
  for (const name of names) if (fields[name] !== undefined && fields[name] !== null && fields[name] !== '') return fields[name];
  return undefined;
}

export function dateOf(value: unknown): string | null {
  const raw = value instanceof Date ? value.toISOString() : text(value);
  if (!raw) return null;
  // A date without a zone is read as UTC, as the static generators do without a configured zone.
  const withZone = /^\d{4}-\d{2}-\d{2}$/.test(raw)
    ? `${raw}T00:00:00Z`
    : /[zZ]|[+-]\d{2}:?\d{2}$/.test(raw)
      ? raw
      : `${raw.replace(' ', 'T')}Z`;
  const time = Date.parse(withZone);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}

export function authorOf(value: unknown): string {
  if (Array.isArray(value)) return authorOf(value[0]);
  if (value && typeof value === 'object') return text((value as Fields).name);
  return text(value);
}
