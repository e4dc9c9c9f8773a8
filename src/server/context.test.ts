import { afterEach, describe, expect, it } from 'vitest';
import { getAppContext, noPageCache, setAppContext, type AppContext } from './context.ts';
import { loadConfig } from './config.ts';
import { openMigratedDatabase } from '../../tests/support/db.ts';

describe('the app context', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('is set once, whole, and cannot be changed afterwards', async () => {
    const opened = await openMigratedDatabase();
    close = opened.close;
    const context: AppContext = { config: loadConfig({}), db: opened.db, sqlite: opened.sqlite, pageCache: noPageCache };
    setAppContext(context);
    expect(getAppContext()).toBe(context);
    expect(() => {
      (getAppContext() as { pageCache: unknown }).pageCache = null;
    }).toThrow(TypeError);
    expect(getAppContext().pageCache).toBe(noPageCache);
  });
});
