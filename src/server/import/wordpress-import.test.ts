import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blogByTitle as blogOf, countRows, importTestSite } from '../../../tests/support/import-test-site.ts';
import { readImportFile } from './import-file.ts';
import { runImport } from './import-run.ts';
import { folderSource } from './upload-source.ts';
import { STUDY_SITE_WXR, writeStudyUploads } from '../../../tests/support/import-fixture.ts';

const saver = { id: null, username: 'test import' };

const fixture = importTestSite('wordpress-import-');
const blogByTitle = (title: string) => blogOf(fixture.db, title);
const count = (table: Parameters<typeof countRows>[1]) => countRows(fixture.sqlite, table);
const notesOf = (report: { imported: Array<{ title: string; notes: string[] }> }, title: string) =>
  report.imported.find((l) => l.title === title)?.notes ?? [];

describe('importing the study-site WordPress export', () => {
  const uploads = () => writeStudyUploads(path.join(fixture.dir, 'old-uploads'));

  it('brings every post with its title, date, status, category, comments and featured image', async () => {
    const site = await readImportFile(STUDY_SITE_WXR);
    const { report } = await runImport(fixture.target, site, { dryRun: false, files: folderSource(await uploads()), saver });
    expect(report.failed).toEqual([]);
    // Nine posts; the attachments and the menu entry are not articles, the post in the bin and a third page are reported.
    expect(report.imported).toHaveLength(9);
    expect(report.skipped.map((l) => [l.title, l.reason])).toEqual([
      ['Old timetable', 'status "trash" is not imported'],
      ['Formula sheet', 'a page, not an article (only About and Contact are taken, as those pages)'],
    ]);
    expect(await count('blogs')).toBe(9);
    expect(await count('blog_revisions')).toBe(9);
    expect(report.comments).toEqual({ imported: 6, alreadyThere: 0, refused: 0 });
    expect(report.categoriesCreated).toEqual(['Physics', 'Mathematics', 'History', 'Uncategorized']);

    const newton = await blogByTitle("Newton's laws of motion");
    // The GMT date, not the site's local one an hour later; the author's display name, not the login.
    expect(newton).toMatchObject({
      author: 'Amira Haddad',
      created_at: '2019-03-14T09:30:00.000Z',
      status: 'published',
      category: 'Physics',
    });
    expect(notesOf(report, newton.title)).toEqual([
      '1 pingbacks, trackbacks or deleted comments left out',
      'also filed under Mechanics, Year 12, #forces (one category is shown)',
    ]);
    const its = await fixture.db
      .selectFrom('comments')
      .select(['username', 'created_at', 'status', 'comment'])
      .where('blog_id', '=', newton.id)
      .orderBy('id')
      .execute();
    expect(its).toEqual([
      {
        username: 'Zoë Παπαδοπούλου',
        created_at: '2019-03-15T08:12:00.000Z',
        status: 'approved',
        comment: 'Does the first law still hold on a moving train?',
      },
      {
        username: 'Amira Haddad',
        created_at: '2019-03-15T11:40:00.000Z',
        status: 'approved',
        comment: 'Yes, while the train moves at a constant velocity.\nRoll a ball on the floor and watch it.',
      },
      {
        username: 'Sam',
        created_at: '2019-03-16T19:05:00.000Z',
        status: 'pending',
        comment: 'Is F = ma still true for a rocket, whose mass changes?',
      },
      { username: 'Essay Shop', created_at: '2019-03-17T02:00:00.000Z', status: 'spam', comment: 'Cheap physics essays here' },
    ]);

    // The one picture in the uploads folder, named by the featured image and (by its 300x200 copy) in the text: one stored copy.
    expect(newton.image).toMatch(/^\/uploads\/images\/[a-z0-9]+-w\d+\.webp$/);
    expect(fs.existsSync(path.join(fixture.target.uploadsDir, newton.image!.replace('/uploads/', '')))).toBe(true);
    expect(newton.content).toContain(`<img src="${newton.image!}"`);
    // Block comments are gone, the sanitizer ran (no class, no srcset), the shortcode is text, the forward link is the old path.
    expect(newton.content).not.toMatch(/<!--|class=|srcset|notes\.example\.org/);
    expect(newton.content).toContain('[quiz id="newton-1" questions="5"]');
    expect(newton.content).toContain('<a href="/2019/05/pythagoras-theorem"');

    const pythagoras = await blogByTitle('The Pythagorean theorem: a² + b² = c²');
    expect(pythagoras).toMatchObject({
      author: 'Jon Ellis',
      created_at: '2019-05-02T16:00:00.000Z',
      category: 'Mathematics',
      image: null,
    });
    // Classic text: paragraphs and a line break as WordPress shows it, the caption shortcode kept, ?p=11 now this site's article.
    expect(pythagoras.content).toContain(
      '<p>A quick check with a 3–4–5 triangle: 9 + 16 = 25.<br />\nThe 5–12–13 triangle works the same way.</p>',
    );
    expect(pythagoras.content).toContain('<p>[caption id="attachment_102" align="alignright" width="300"]<img');
    expect(pythagoras.content).toContain(`<a href="/blog/${newton.id}"`);
    // Missing files are reported, not fatal; the excerpt and the second category are reported too.
    expect(notesOf(report, pythagoras.title)).toEqual([
      'its hand-written excerpt was not kept (cards here show the opening of the text)',
      'featured image 2019/05/pythagoras-proof.png: not in the uploads folder',
      'image 2019/05/pythagoras-proof.png: not in the uploads folder',
      'also filed under Geometry (one category is shown)',
    ]);
    expect(notesOf(report, 'How the printing press changed Europe')).toContain(
      'image 2020/01/printing-press.jpg: not in the uploads folder',
    );
    const revolution = await blogByTitle('Causes & effects of the French Revolution');
    expect(revolution).toMatchObject({ created_at: '2020-07-14T09:00:00.000Z', category: 'History' });
    expect(revolution.content).toContain(`<a href="/blog/${(await blogByTitle('How the printing press changed Europe')).id}"`);

    // Every status: a draft without a GMT date keeps its local one, pending and private become drafts,
    // a date still to come is scheduled at its GMT time, a password-protected post is not made public.
    expect(await blogByTitle('Energy conservation worksheet')).toMatchObject({
      status: 'draft',
      created_at: '2021-02-10T16:45:00.000Z',
    });
    expect(await blogByTitle('Proof by induction: practice set')).toMatchObject({
      status: 'draft',
      content: expect.stringContaining('show that a[b[n]]&gt; a[n] for every n.'),
    });
    expect(await blogByTitle("Maxwell's equations on one page")).toMatchObject({
      status: 'scheduled',
      publish_at: '2030-09-01T08:00:00.000Z',
      category: 'Physics',
    });
    expect(await blogByTitle('Marking scheme for the mock exam')).toMatchObject({
      status: 'draft',
      category: 'Uncategorized',
      content: '<p>Question 3: one mark for <em>v</em> = <em>u</em> + <em>at</em>, one for the answer, 12 m/s &amp; no more.</p>',
    });
    expect(await blogByTitle('Answers to the calculus quiz')).toMatchObject({ status: 'draft' });
    expect(notesOf(report, 'Answers to the calculus quiz')).toEqual(['password-protected on the old site: imported as a draft']);

    // The old addresses: the permalink, ?p= and the slug; a draft without a slug has ?p= only.
    const redirects = async (id: number) =>
      (await fixture.db.selectFrom('redirects').select('path').where('blog_id', '=', id).execute()).map((r) => r.path).sort();
    expect(await redirects(newton.id)).toEqual(['/2019/03/newtons-laws-of-motion', '/?p=11', '/newtons-laws-of-motion']);
    expect(await redirects((await blogByTitle('Energy conservation worksheet')).id)).toEqual(['/?p=14']);
    expect(report.redirects).toBe(24);
    expect(await count('redirects')).toBe(24);
  });

  it("offers the old site's About and Contact pages as this site's, keeps them on a second run, and never replaces an edited one", async () => {
    const site = await readImportFile(STUDY_SITE_WXR);
    const options = { dryRun: false, files: null, saver };
    const first = await runImport(fixture.target, site, options);
    expect(first.report.infoPages).toEqual([
      { slug: 'about', title: 'About', outcome: 'imported' },
      { slug: 'contact', title: 'Contact', outcome: 'imported' },
    ]);
    const page = (slug: string) =>
      fixture.sqlite.prepare('select content from info_pages where slug = ?').get(slug) as { content: string } | undefined;
    // Its link to a post is this site's article, imported before the pages.
    const newton = await blogByTitle("Newton's laws of motion");
    expect(page('about')!.content).toContain(`Start with <a href="/blog/${newton.id}"`);
    expect(page('contact')!.content).toContain('in English or عربي.');
    const revisions = () =>
      (
        fixture.sqlite.prepare("select action from info_page_revisions where slug = 'about' order by id").all() as Array<{
          action: string;
        }>
      ).map((r) => r.action);
    expect(revisions()).toEqual(['builtin', 'update']);

    const again = await runImport(fixture.target, site, options);
    expect(again.report.infoPages.map((p) => p.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(revisions()).toEqual(['builtin', 'update']);

    fixture.sqlite.prepare("update info_pages set content = '<p>Our own words</p>' where slug = 'about'").run();
    const edited = await runImport(fixture.target, site, options);
    expect(edited.report.infoPages[0]).toMatchObject({ outcome: 'kept', reason: expect.stringMatching(/already edited/) });
    expect(edited.report.infoPages[1]).toMatchObject({ outcome: 'unchanged' });
    expect(page('about')!.content).toBe('<p>Our own words</p>');
  });

  it('changes nothing when the same file is imported again', async () => {
    const site = await readImportFile(STUDY_SITE_WXR);
    const files = folderSource(await uploads());
    await runImport(fixture.target, site, { dryRun: false, files, saver });
    const before = [
      await count('blogs'),
      await count('comments'),
      await count('categories'),
      await count('blog_revisions'),
      await count('uploads'),
    ];
    expect(before).toEqual([9, 6, 4, 9, expect.any(Number)]);
    expect(before[4]).toBeGreaterThan(0);
    const { report } = await runImport(fixture.target, site, { dryRun: false, files, saver });
    expect(report.imported).toEqual([]);
    expect(report.updated).toEqual([]);
    expect(report.unchanged).toHaveLength(9);
    expect(report.skipped.every((l) => l.id === undefined && l.reason)).toBe(true);
    expect([
      await count('blogs'),
      await count('comments'),
      await count('categories'),
      await count('blog_revisions'),
      await count('uploads'),
    ]).toEqual(before);
  });

  it('writes nothing in a dry run, and reports what it would do', async () => {
    const { report } = await runImport(fixture.target, await readImportFile(STUDY_SITE_WXR), {
      dryRun: true,
      files: null,
      saver,
    });
    expect(report.imported).toHaveLength(9);
    expect(report.comments.imported).toBe(6);
    expect(report.redirects).toBe(24);
    expect(report.categoriesCreated).toEqual(['Physics', 'Mathematics', 'History', 'Uncategorized']);
    for (const table of ['blogs', 'comments', 'categories', 'redirects'] as const) expect(await count(table)).toBe(0);
    expect(fixture.sqlite.prepare('select count(*) as n from info_pages').get()).toEqual({ n: 0 });
  });
});
