import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blogByTitle as blogOf, countRows, importTestSite } from '../../../tests/support/import-test-site.ts';
import { STUDY_SITE_GHOST, writeGhostImages } from '../../../tests/support/import-fixture.ts';
import { readImportFile } from './import-file.ts';
import { runImport } from './import-run.ts';
import { folderSource } from './upload-source.ts';

const saver = { id: null, username: 'test import' };
const fixture = importTestSite('ghost-import-');
const blogByTitle = (title: string) => blogOf(fixture.db, title);

/** The fixture imported with its content/images folder (one picture of two present). */
async function importStudySite() {
  const site = await readImportFile(STUDY_SITE_GHOST);
  const files = folderSource(await writeGhostImages(path.join(fixture.dir, 'content-images')));
  return (await runImport(fixture.target, site, { dryRun: false, files, saver })).report;
}

describe('importing the study-site Ghost 5 export', () => {
  it('brings every post with its title, author, date, status, primary tag and feature image', async () => {
    const report = await importStudySite();
    expect(report.source).toBe('ghost:Year 10 Biology');
    expect(report.failed).toEqual([]);
    expect(report.imported.map((line) => line.title)).toEqual([
      'Photosynthesis in one page',
      'Cell division',
      'The water cycle',
      'Enzymes (notes in progress)',
      'The nitrogen cycle',
      'Osmosis',
    ]);
    expect(report.skipped.map((line) => [line.title, line.reason])).toEqual([
      ['Privacy', 'a page, not an article (only About and Contact are taken, as those pages)'],
    ]);
    // The primary tag is the first public one: the internal #year-10 is never a category.
    expect(report.categoriesCreated).toEqual(['Biology', 'Geography', 'Uncategorized']);
    expect(await countRows(fixture.sqlite, 'blogs')).toBe(6);

    const photosynthesis = await blogByTitle('Photosynthesis in one page');
    expect(photosynthesis).toMatchObject({
      author: 'Lucía Fernández',
      created_at: '2024-05-02T07:15:00.000Z',
      status: 'published',
      category: 'Biology',
    });
    expect(photosynthesis.image).toMatch(/^\/uploads\/images\/[0-9a-f]+-w1600\.webp$/);
    expect(fs.existsSync(path.join(fixture.target.uploadsDir, 'images', path.basename(photosynthesis.image!)))).toBe(true);
    expect(report.imported[0]!.notes).toEqual(['also filed under Plants (one category is shown)']);
    // Its html, as Ghost stored it: subscripts written as subscript characters, which the editor has.
    expect(photosynthesis.content).toContain('6CO₂ + 6H₂O → C₆H₁₂O₆ + 6O₂');

    // The first of two authors.
    expect(await blogByTitle('Cell division')).toMatchObject({ author: 'Tom Okafor', created_at: '2024-05-06T09:00:00.000Z' });
    const water = await blogByTitle('The water cycle');
    expect(water).toMatchObject({ category: 'Geography', image: null, created_at: '2020-11-21T12:00:00.000Z' });
    expect(report.imported[2]!.notes).toEqual([
      'rendered from its mobiledoc document (the export had no html)',
      'featured image 2020/11/clouds.jpg: not in the uploads folder',
    ]);

    expect(await blogByTitle('Enzymes (notes in progress)')).toMatchObject({ status: 'draft', category: 'Biology' });
    expect(await blogByTitle('The nitrogen cycle')).toMatchObject({
      status: 'scheduled',
      publish_at: '2031-09-01T06:30:00.000Z',
      category: 'Geography',
    });
    // Scheduled for a date already past: published, and said so. Only an internal tag: Uncategorized.
    expect(await blogByTitle('Osmosis')).toMatchObject({ status: 'published', category: 'Uncategorized' });
    expect(report.imported[5]!.notes).toEqual(['scheduled for a date now past: published']);
  });

  it("renders a lexical-only post in the editor's shapes, with its unusual text unchanged", async () => {
    const report = await importStudySite();
    const cells = await blogByTitle('Cell division');
    const photosynthesis = await blogByTitle('Photosynthesis in one page');
    expect(report.imported[1]!.notes).toEqual([
      'a Ghost "signup" card was left out',
      'rendered from its lexical document (the export had no html)',
    ]);
    expect(cells.content).toContain('<h2>The two kinds</h2>');
    expect(cells.content).toContain('<strong>mitosis</strong>');
    expect(cells.content).toContain('<em>meiosis</em>');
    expect(cells.content).toContain('<ol><li>Prophase</li><li>Metaphase</li><li>Anaphase</li><li>Telophase</li></ol>');
    // Arabic, an emoji and a combining accent come through as they were written (not normalised).
    expect(cells.content).toContain(
      'Arabic label: الانقسام الخلوي · emoji 🧬 · café written with a combining accent: cafe\u0301',
    );
    // A link to a post imported before it is this site's article.
    expect(cells.content).toContain(`<a href="/blog/${photosynthesis.id}"`);
    // The image card: the stored copy of the present picture, its caption a paragraph of its own.
    expect(cells.content).toContain(`<img src="${photosynthesis.image}" alt="A leaf"`);
    expect(cells.content).toContain('<p><em>A leaf under the microscope</em></p>');
    // The code card keeps its language as the editor writes it.
    expect(cells.content).toContain('<pre data-language="python"><code>cells = 2 ** generations</code></pre>');
  });

  it('answers the old addresses with the new articles, offers About and Contact, and changes nothing when run again', async () => {
    const first = await importStudySite();
    expect(first.redirects).toBe(6);
    const photosynthesis = await blogByTitle('Photosynthesis in one page');
    const redirect = fixture.sqlite.prepare('select blog_id from redirects where path = ?').get('/photosynthesis-in-one-page') as
      | { blog_id: number }
      | undefined;
    expect(redirect?.blog_id).toBe(photosynthesis.id);
    expect(first.infoPages).toEqual([
      { slug: 'about', title: 'About', outcome: 'imported' },
      { slug: 'contact', title: 'Contact', outcome: 'imported' },
    ]);
    const contact = fixture.sqlite.prepare("select content from info_pages where slug = 'contact'").get() as { content: string };
    expect(contact.content).toBe('<p>Write to the school office.</p>');

    const again = await importStudySite();
    expect(again.imported).toEqual([]);
    expect(again.updated).toEqual([]);
    expect(again.unchanged).toHaveLength(6);
    expect(again.skipped.map((line) => line.title)).toEqual(['Privacy']);
    expect(await countRows(fixture.sqlite, 'blogs')).toBe(6);
    expect(await countRows(fixture.sqlite, 'redirects')).toBe(6);
  });
});
