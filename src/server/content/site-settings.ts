import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { countDemo } from '../db/repositories/demo-content.ts';
import { cachedRead } from '../db/read-cache.ts';
import { readSettingRows, writeSettingRows } from '../db/repositories/site-settings.ts';
import { throwIfInvalid } from '../errors.ts';
import { tag } from '../page-store/site-tags.ts';
import { removeUnreferencedUploads } from '../uploads/cleanup.ts';
import { removeSiteIcons, storeSiteIcons } from '../uploads/icons.ts';
import { brandDark, parseHexColor, toHexColor } from '../../shared/contrast.ts';
import {
  DEFAULT_SETTINGS,
  IMAGE_FIELDS,
  SETTING_KEYS,
  SETTINGS_MESSAGES,
  validateSettingsInput,
  type SiteSettingsValues,
} from '../../shared/validation/settings.ts';
import type { SavedSettings, SettingsAnswer } from '../../shared/api-types.ts';

/**
 * The site settings: what every public page reads (through getSiteSettings, one cached copy per
 * process) and the admin's save. A save refreshes every stored page through the site-wide
 * `settings` tag: the main pages before it answers, the others in the background.
 */

/** The settings as pages use them: the stored values plus what is derived from them. */
export interface SiteSettings extends SiteSettingsValues {
  /** The hover shade of the brand colour. */
  brand_dark: string;
  /** `/uploads/icons/<id>` when a site icon was uploaded (uploads/icons.ts names the sizes), else null. */
  icon_base: string | null;
}

/** Not a setting the admin types: the icon set made from the uploaded site icon. */
const ICON_BASE_KEY = 'favicon_icons';

function fromRows(rows: Record<string, string>): SiteSettings {
  const values = { ...DEFAULT_SETTINGS };
  for (const key of SETTING_KEYS) if (typeof rows[key] === 'string') values[key] = rows[key];
  const color = parseHexColor(values.brand_color) ?? parseHexColor(DEFAULT_SETTINGS.brand_color)!;
  return { ...values, brand_dark: toHexColor(brandDark(color)), icon_base: rows[ICON_BASE_KEY] || null };
}

/**
 * The settings every page shows, kept per connection while the database cannot have changed
 * (`cachedRead`: read again after any write of this process or a commit of another).
 */
export function getSiteSettings(app: { db: Db }): Promise<SiteSettings> {
  return cachedRead(app.db, 'site-settings', async () => fromRows(await readSettingRows(app.db)));
}

/** The stored settings, read now (not cached): what a save starts from. */
export async function readSiteSettings(db: Db): Promise<SiteSettings> {
  return fromRows(await readSettingRows(db));
}

function valuesOnly(settings: SiteSettings): SiteSettingsValues {
  const values = { ...DEFAULT_SETTINGS };
  for (const key of SETTING_KEYS) values[key] = settings[key];
  return values;
}

export async function getSettingsAnswer(db: Db): Promise<SettingsAnswer> {
  return { settings: valuesOnly(await readSiteSettings(db)), demo: await countDemo(db) };
}

/** Writes some settings without the admin form's checks (the setup page's title, the demo seed). */
export async function writeSettings(db: Db, values: Partial<SiteSettingsValues>): Promise<void> {
  await writeSettingRows(db, values as Record<string, string>);
}

/**
 * The admin's save: checked by the shared schema (400 naming each bad field), the site icon made
 * into its sizes when it changed, one transaction, then every page refreshed; files the old
 * values named are removed once nothing else uses them.
 */
export async function saveSiteSettings(app: AppContext, body: Record<string, unknown>): Promise<SavedSettings> {
  const startedAt = performance.now();
  const current = await readSiteSettings(app.db);
  const values = throwIfInvalid(validateSettingsInput(body, valuesOnly(current)));
  let iconBase = current.icon_base ?? '';
  if (values.favicon !== current.favicon || (values.favicon !== '' && !current.icon_base)) {
    iconBase = values.favicon === '' ? '' : await storeSiteIcons(app.db, app.config.uploadsDir, values.favicon);
  }
  await app.db.transaction().execute((trx) => writeSettingRows(trx, { ...values, [ICON_BASE_KEY]: iconBase }));
  if (current.icon_base && current.icon_base !== iconBase)
    await removeSiteIcons(app.db, app.config.uploadsDir, current.icon_base);
  const replaced = IMAGE_FIELDS.filter((key) => current[key] !== values[key]).map((key) => current[key]);
  if (replaced.length) await removeUnreferencedUploads(app.db, app.config.uploadsDir, replaced);
  const { live_ms, refresh } = await app.pageCache.invalidate([tag.settings], startedAt);
  return { ...(await getSettingsAnswer(app.db)), message: SETTINGS_MESSAGES.saved, live_ms, refresh };
}
