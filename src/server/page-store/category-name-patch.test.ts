import { describe, expect, it } from 'vitest';
import { renameCategoriesIn as renameInBytes, UNCATEGORIZED_LABEL, type CategoryRename } from './category-name-patch.ts';

/** The rename on a page's UTF-8 bytes, as the worker runs it, read back as text. */
const renameCategoriesIn = (html: string, renames: readonly CategoryRename[], listOf: number | null) =>
  renameInBytes(Buffer.from(html), renames, listOf)?.toString('utf8') ?? null;

// Pieces of pages as the components write them (tests/integration/rename-patch.test.ts checks the
// whole pages of a real site against renders).
/** A card: the name as text escapes it, and as an attribute does (`&` and `"` only). */
const card = (name: string, inAttribute = name) =>
  `<div class="card-body"><p class="category-label" dir="auto">${name}</p><h2 class="card-title" dir="auto">T</h2>` +
  `<button type="button" data-save-article="1" data-title="T" data-image data-pdf data-category="${inAttribute}" aria-pressed="false" hidden></button></div>`;
const articleHead = (title: string, name: string) =>
  `<title>${title} | Site</title><meta name="description" content="${title}: a ${name} article.">` +
  `<meta property="og:title" content="${title}"><meta property="og:description" content="${title}: a ${name} article.">` +
  `<script type="application/ld+json">{"headline":"${title}","articleSection":"${name}","url":"u"}</script>`;
const list = (name: string, suffix = '') =>
  `<title>${name}${suffix} | Site</title><meta name="description" content="Study articles in ${name}.">` +
  `<meta property="og:title" content="${name}${suffix}"><h1 class="page-heading" dir="auto">${name}</h1>`;

describe('renameCategoriesIn', () => {
  it('writes the new name where the components write the old one, escaped as each place escapes it', () => {
    const patched = renameCategoriesIn(
      card('Optics') + card('Optics'),
      [{ id: 3, from: 'Optics', to: 'Light & "lenses" <1>' }],
      null,
    );
    expect(patched).toBe(card('Light &amp; &quot;lenses&quot; &lt;1&gt;', 'Light &amp; &quot;lenses&quot; <1>').repeat(2));
  });

  it("leaves an article's own title alone where it repeats the category's name, and writes the description and structured data", () => {
    const page = articleHead('Optics', 'Optics') + '<article><h1 dir="auto">Optics</h1><p>Optics is fun.</p></article>';
    const patched = renameCategoriesIn(page, [{ id: 3, from: 'Optics', to: 'Light' }], null)!;
    expect(patched).toBe(articleHead('Optics', 'Light') + '<article><h1 dir="auto">Optics</h1><p>Optics is fun.</p></article>');
  });

  it("writes the heading and titles only on the category's own list", () => {
    const page = list('Optics', ' (page 2 of 3)') + card('Optics');
    expect(renameCategoriesIn(page, [{ id: 3, from: 'Optics', to: 'Light' }], 3)).toBe(
      list('Light', ' (page 2 of 3)') + card('Light'),
    );
    // The list of all articles titled like the category (or another category's list): only the card changes.
    expect(renameCategoriesIn(page, [{ id: 3, from: 'Optics', to: 'Light' }], null)).toBe(
      list('Optics', ' (page 2 of 3)') + card('Light'),
    );
    expect(renameCategoriesIn(list('Optics') + card('Optics'), [{ id: 3, from: 'Optics', to: 'Light' }], 3)).toBe(
      list('Light') + card('Light'),
    );
  });

  it('finds and writes names outside Latin-1 byte for byte, beside text outside it too', () => {
    const pager = (name: string) =>
      `<nav aria-label="More in ${name}"><span class="pager-arrow" aria-hidden="true">←</span>Older in ${name}</span></nav>`;
    const page = (name: string) => `<p>Ωmega → ∞</p>` + card(name) + pager(name);
    expect(renameCategoriesIn(page('Óptica'), [{ id: 3, from: 'Óptica', to: 'Lumière → 光学' }], null)).toBe(
      page('Lumière → 光学'),
    );
  });

  it('renames several categories at once', () => {
    const renames = [
      { id: 3, from: 'Optics', to: 'Light' },
      { id: 4, from: 'Waves', to: 'Sound' },
    ];
    expect(renameCategoriesIn(card('Optics') + card('Waves'), renames, null)).toBe(card('Light') + card('Sound'));
  });

  it('refuses what it cannot do safely: the page is rendered instead', () => {
    const rename = (from: string, to: string, id = 3) => ({ id, from, to });
    // Not where the components write it (the page was rendered after the rename, or a component changed).
    expect(renameCategoriesIn('<p>Optics</p>', [rename('Optics', 'Light')], null)).toBeNull();
    expect(renameCategoriesIn(card('Light'), [rename('Optics', 'Light')], null)).toBeNull();
    // One found, the other not.
    expect(renameCategoriesIn(card('Optics'), [rename('Optics', 'Light'), rename('Waves', 'Sound', 4)], null)).toBeNull();
    // The old name is what uncategorized articles show: their cards cannot be told apart.
    expect(renameCategoriesIn(card(UNCATEGORIZED_LABEL), [rename(UNCATEGORIZED_LABEL, 'Basics')], null)).toBeNull();
    // Names swapped: one replacement would undo the other.
    expect(
      renameCategoriesIn(card('Optics') + card('Waves'), [rename('Optics', 'Waves'), rename('Waves', 'Optics', 4)], null),
    ).toBeNull();
  });

  it('keeps a page whose category only moved in the order (same name) as it is', () => {
    const page = card('Optics');
    expect(renameCategoriesIn(page, [{ id: 3, from: 'Optics', to: 'Optics' }], null)).toBe(page);
  });
});
