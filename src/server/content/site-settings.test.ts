import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createPageCache, type AppContext } from '../context.ts';
import { tagName } from '../page-store/site-tags.ts';
import { AppError } from '../errors.ts';
import { getSiteSettings, saveSiteSettings, writeSettings } from './site-settings.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';

let app: AppContext;
let changes: string[][];

beforeEach(async () => {
  const { db, sqlite } = await openMigratedDatabase();
  changes = [];
  app = { config: loadConfig({}), db, sqlite, pageCache: createPageCache(async (tags) => void changes.push(tags.map(tagName))) };
});

afterEach(() => app.sqlite.close());

async function refusal(body: Record<string, unknown>): Promise<AppError> {
  try {
    await saveSiteSettings(app, body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the save to be refused');
}

describe('site settings service', () => {
  it('answers the built-in settings, with the derived hover shade, until something is saved', async () => {
    const settings = await getSiteSettings(app);
    expect(settings.site_title).toBe('Study Site');
    expect(settings.brand_color).toBe('#1d4ed8');
    expect(settings.brand_dark).toBe('#13338c');
    expect(settings.icon_base).toBeNull();
  });

  it('keeps one copy and reads again after a write of this process', async () => {
    const first = await getSiteSettings(app);
    expect(await getSiteSettings(app)).toBe(first);
    await writeSettings(app.db, { site_title: 'Changed' });
    expect((await getSiteSettings(app)).site_title).toBe('Changed');
  });

  it('saves, refreshes every page through the settings tag, and answers the saved values', async () => {
    const saved = await saveSiteSettings(app, { site_title: 'Maple Notes', social_youtube: 'https://www.youtube.com/@maple' });
    expect(saved.settings.site_title).toBe('Maple Notes');
    expect(saved.message).toBe('Settings saved.');
    expect(changes).toEqual([['settings']]);
    expect((await getSiteSettings(app)).social_youtube).toBe('https://www.youtube.com/@maple');
  });

  it('refuses bad input with a 400 naming the fields, and writes nothing', async () => {
    const error = await refusal({ site_title: '', brand_color: '#eeeeee' });
    expect(error.status).toBe(400);
    expect(Object.keys(error.fields ?? {})).toEqual(['site_title', 'brand_color']);
    expect(changes).toEqual([]);
    expect((await getSiteSettings(app)).site_title).toBe('Study Site');
  });
});
