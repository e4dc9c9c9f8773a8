import { describe, expect, it } from 'vitest';
import { chromeHtmlFor } from './chrome-html.ts';

const chrome = () => ({ categories: [], navMain: [], navMore: [], footerQuick: [], footerImportant: [] });
const settings = () => ({ site_title: 'Study' });

describe('chromeHtmlFor', () => {
  it('keeps the HTML for the same data, and starts empty for data read again after a change', () => {
    const [categories, shown] = [chrome(), settings()];
    chromeHtmlFor(categories, shown).set('header:home.-', '<header>old</header>');
    expect(chromeHtmlFor(categories, shown).get('header:home.-')).toBe('<header>old</header>');
    // A write brings new objects from the read cache: new categories, or new settings.
    expect(chromeHtmlFor(chrome(), shown).size).toBe(0);
    expect(chromeHtmlFor(categories, settings()).size).toBe(0);
  });
});
