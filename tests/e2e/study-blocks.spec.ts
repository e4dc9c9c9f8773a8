import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { banner, findBlogId, logInThroughForm, waitForEditor } from './admin-support.ts';
import { url, waitForNavScript } from './site-support.ts';

/**
 * Study material written in the editor and read on the public page: inline formulas typed between
 * dollars (a long one among them) and a display one typed as $$…$$, a display formula from the
 * panel (and an invalid one that still saves), numbered, task and bulleted lists, a quote, inline
 * code, a horizontal rule, "Remember" and "Worked example" callouts, a Python code block, a table
 * with columns and rows added and removed and a column aligned, and a footnote. Readers get
 * MathML and highlighted code with no script for either, in light and dark, at phone and desktop
 * widths, with nothing wider than the screen and no axe violation. The article is deleted at the end.
 */
test.describe.configure({ mode: 'serial' });

const title = `Study blocks ${Date.now()}`;
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
let page: Page;
let blogId = 0;

test.beforeAll(async ({ browser }) => {
  // axe needs a page of its own context (browser.newPage() gives one it cannot run in).
  page = await (await browser.newContext()).newPage();
  await logInThroughForm(page);
});

test.afterAll(async () => {
  if (blogId) {
    await page.goto(url('/admin/blogs-manage'));
    await page.getByLabel('Search blogs').fill(title);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: `Delete ${title}`, exact: true }).click();
    await expect(page.getByRole('link', { name: `Edit ${title}`, exact: true })).toHaveCount(0);
  }
  await page.context().close();
});

test('each study block is written in the editor and saved', async () => {
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption({ label: 'Mathematics' });
  const editor = page.locator('.editor-content');
  const study = page.getByRole('toolbar', { name: 'Formatting' });
  const press = (name: string) => study.getByRole('button', { name, exact: true }).click();
  await editor.click();
  // Written top to bottom, never moving back: each step waits until the editor shows the last one.
  // A formula typed between dollars becomes one as the closing dollar is typed (a long one too).
  await page.keyboard.type('The roots of $ax^2 + bx + c = 0$');
  await expect(editor.locator('p .editor-math:not(.editor-math-block) math msup')).toBeVisible();
  await page.keyboard.type(' and the fifth power $(a+b)^5 = a^5 + 5a^4b + 10a^3b^2 + 10a^2b^3 + 5ab^4 + b^5$');
  await expect(editor.locator('p .editor-math:not(.editor-math-block)')).toHaveCount(2);
  await page.keyboard.type(' cost $5 or $10 to learn. The roots are ');
  await press('Formula');
  const formula = page.getByRole('group', { name: 'Formula' });
  await formula.getByLabel('Formula (TeX)').fill('x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}');
  await formula.getByLabel(/On its own line/).check();
  await expect(formula.locator('.math-preview math msqrt')).toBeVisible();
  await formula.getByRole('button', { name: 'Insert formula' }).click();
  await expect(editor.locator('.editor-math-block math mfrac')).toBeVisible();

  // The cursor is in the paragraph below the formula.
  await page.keyboard.type('A typo: ');
  await page.keyboard.press('ControlOrMeta+Alt+m');
  await formula.getByLabel('Formula (TeX)').fill('\\frac{1}{');
  await expect(formula.getByText(/This formula has an error/)).toBeVisible();
  await formula.getByRole('button', { name: 'Insert formula' }).click();
  await expect(editor.locator('.editor-math.math-error')).toHaveText('\\frac{1}{');
  await page.keyboard.type(' is kept.');
  await expect(editor.locator('p', { hasText: 'is kept.' })).toBeVisible();
  await page.keyboard.press('Enter');
  // A paragraph typed as $$…$$ becomes a display formula; the cursor goes on below it.
  await page.keyboard.type('$$E = mc^2$$');
  await expect(editor.locator('.editor-math-block')).toHaveCount(2);
  await page.keyboard.type('Mass is energy.');
  await expect(editor.locator('.editor-math-block + p').last()).toHaveText('Mass is energy.');
  await page.keyboard.press('Enter');

  await press('Numbered list');
  await page.keyboard.type('Read a, b and c');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Work out the discriminant');
  await expect(editor.locator('ol > li')).toHaveCount(2);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Checklist');
  await expect(editor.locator(':scope > p', { hasText: 'Checklist' })).toBeVisible();
  await page.keyboard.press('Enter');
  await press('Task list');
  await page.keyboard.type('Learn the formula');
  await expect(editor.locator('li[data-item-type="task"]', { hasText: 'Learn the formula' })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(editor.locator('ul li')).toHaveCount(1);

  await press('Bulleted list');
  await page.keyboard.type('Temperature');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Pressure');
  await expect(editor.locator('ul > li:not([data-item-type="task"])')).toHaveCount(2);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');

  await press('Quote');
  await page.keyboard.type('Mathematics is the language of nature.');
  await expect(editor.locator('blockquote', { hasText: 'language of nature' })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  // Inline code with nothing selected: on for what is typed next, then off again.
  await page.keyboard.type('Call ');
  await expect(editor.locator(':scope > p', { hasText: 'Call' })).toBeVisible();
  await press('Inline code');
  await page.keyboard.type('print()');
  await expect(editor.locator('p > code')).toHaveText('print()');
  await press('Inline code');
  await page.keyboard.type(' to show it.');
  await expect(editor.locator('p', { hasText: 'to show it.' })).toBeVisible();
  await expect(editor.locator('p > code')).toHaveText('print()');
  await press('Horizontal rule');
  await expect(editor.locator('hr')).toHaveCount(1);
  await page.keyboard.type('After the rule.');
  await expect(editor.locator('hr + p')).toHaveText('After the rule.');
  await page.keyboard.press('Enter');

  await press('Callout');
  await page.getByRole('group', { name: 'Callout' }).getByRole('button', { name: 'Remember' }).click();
  await page.keyboard.type('Divide by 2a, not 2.');
  await expect(editor.locator('[data-callout="remember"]', { hasText: 'Divide by 2a' })).toBeVisible();
  // Enter on the empty last line leaves the callout.
  await page.keyboard.press('Enter');
  await expect(editor.locator('[data-callout="remember"] p')).toHaveCount(2);
  await page.keyboard.press('Enter');
  await expect(editor.locator('[data-callout="remember"] p')).toHaveCount(1);

  await press('Callout');
  await page.getByRole('group', { name: 'Callout' }).getByRole('button', { name: 'Worked example' }).click();
  await page.keyboard.type('A ball falls for 2 s: v = 9.8 × 2 = 19.6 m/s.');
  await expect(editor.locator('[data-callout="example"]', { hasText: '19.6 m/s' })).toBeVisible();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(editor.locator('[data-callout="example"] p')).toHaveCount(1);

  await press('Code block');
  await page.getByRole('group', { name: 'Code block' }).getByLabel('Language').selectOption('python');
  await page.getByRole('button', { name: 'Insert code block' }).click();
  await page.keyboard.type('print(2 + 2)  # four');
  await expect(editor.locator('pre[data-language="python"]')).toHaveText('print(2 + 2)  # four');
  await expect(editor.locator('[data-callout] pre')).toHaveCount(0);
  await page.keyboard.press('ControlOrMeta+Enter');

  await press('Table');
  await page.getByRole('group', { name: 'Table' }).getByLabel(/Rows/).fill('2');
  await page.getByRole('group', { name: 'Table' }).getByLabel('Columns').fill('2');
  await page.getByRole('button', { name: 'Insert table' }).click();
  for (const [i, text] of ['Element', 'Symbol', 'Sodium', 'Na'].entries()) {
    if (i > 0) await page.keyboard.press('Tab');
    await page.keyboard.type(text);
    await expect(editor.locator('th, td', { hasText: text })).toBeVisible();
  }
  // Columns and rows added, filled, removed again; a column aligned right.
  const table = page.getByRole('group', { name: 'Table' });
  const editTable = async (action: string) => {
    await press('Table');
    await table.getByRole('button', { name: action }).click();
  };
  await editTable('Add column right');
  await expect(editor.locator('th')).toHaveCount(3);
  await page.keyboard.press('Tab');
  await page.keyboard.type('11');
  await editor.locator('th').nth(2).click();
  await page.keyboard.type('Number');
  await expect(editor.locator('th').nth(2)).toHaveText('Number');
  await editTable('Add column right');
  await expect(editor.locator('th')).toHaveCount(4);
  await editor.locator('th').nth(3).click();
  await page.keyboard.type('Spare column');
  await editTable('Delete column');
  await expect(editor.locator('th')).toHaveText(['Element', 'Symbol', 'Number']);
  await editor.locator('td', { hasText: '11' }).click();
  await editTable('Align column right');
  await expect(editor.locator('td', { hasText: '11' })).toHaveAttribute('style', /text-align: right/);
  // The whole column, header included (markdown aligns columns, not cells).
  await expect(editor.locator('th', { hasText: 'Number' })).toHaveAttribute('style', /text-align: right/);
  await expect(editor.locator('th', { hasText: 'Symbol' })).not.toHaveAttribute('style', /text-align: right/);
  await editTable('Add row below');
  await expect(editor.locator('tr')).toHaveCount(3);
  await editor.locator('tr').nth(2).locator('td').first().click();
  for (const [i, text] of ['Chlorine', 'Cl', '17'].entries()) {
    if (i > 0) await page.keyboard.press('Tab');
    await page.keyboard.type(text);
    await expect(editor.locator('td', { hasText: text })).toBeVisible();
  }
  await editTable('Add row below');
  await expect(editor.locator('tr')).toHaveCount(4);
  await editor.locator('tr').nth(3).locator('td').first().click();
  await page.keyboard.type('Spare row');
  await editTable('Delete row');
  await expect(editor.locator('tr')).toHaveCount(3);
  await expect(editor.locator('table')).not.toContainText('Spare');
  await editor.locator('td', { hasText: '17' }).click();
  await page.keyboard.press('End');

  // Last, as the note takes the cursor to the end of the article.
  await press('Footnote');
  await expect(editor.locator('sup[data-type="footnote_reference"]')).toHaveCount(1);
  await page.keyboard.type('Written by hand in the exam.');
  await expect(editor.locator('dl[data-type="footnote_definition"]')).toContainText('Written by hand in the exam.');

  await press('Keyboard shortcuts');
  await expect(
    page.getByRole('group', { name: 'Keyboard shortcuts' }).getByText('Mod+Alt+M'.replace('Mod', 'Ctrl')),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Create Blog' }).click();
  await page.waitForURL(url('/admin/blogs-manage'));
  await expect(banner(page)).toContainText('Blog post created successfully.');
  blogId = await findBlogId(page, title);
});

test('the editor with its study buttons fits a 390 px screen', async () => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
  await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(page.getByRole('group', { name: 'Keyboard shortcuts' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.keyboard.press('Escape');
  // A long formula scrolls in its own box; the writing area does not widen.
  const editor = page.locator('.editor-content');
  await editor.click();
  await page.keyboard.type('So $(a+b)^5 = a^5 + 5a^4b + 10a^3b^2 + 10a^2b^3 + 5ab^4 + b^5$ holds.');
  await expect(editor.locator('.editor-math math')).toHaveCount(1);
  const wider = await editor.evaluate((element) => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    editor: element.scrollWidth - element.clientWidth,
  }));
  expect(wider).toEqual({ page: 0, editor: 0 });
  // Nothing left to save or offer back: the next test opens a new form.
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await expect(editor.locator('.editor-math')).toHaveCount(0);
  await page.evaluate(() => localStorage.clear());
  await page.setViewportSize({ width: 1280, height: 720 });
});

test('paste from Word or Google Docs keeps headings, lists, tables, bold, italic and links, and nothing else', async () => {
  await page.goto(url('/admin/blogs-create'));
  await waitForEditor(page);
  const editor = page.locator('.editor-content');
  await editor.click();
  const html =
    '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{color:red}</style></head><body>' +
    '<!--[if gte mso 9]><xml><o:OfficeDocumentSettings/></xml><![endif]-->' +
    '<h2 class="MsoHeading2" style="color:#2F5496">Rates of reaction</h2>' +
    '<p class="MsoNormal" style="font-family:Calibri;color:red">Heat <b>speeds</b> it <i>up</i>, <a href="https://example.org/rates" style="color:blue" onclick="x()">read more</a><o:p></o:p></p>' +
    '<ul><li style="mso-list:l0">Temperature</li><li>Concentration</li></ul>' +
    '<table class="MsoTable" style="border:1px solid"><tr><th>Factor</th><th style="text-align:right;color:red">Effect</th></tr><tr><td>Heat</td><td style="text-align:right">Faster</td></tr></table>' +
    '<p><b style="font-weight:normal" id="docs-internal-guid-1"><span style="font-weight:700">Docs bold</span> and <span style="font-style:italic">docs italic</span></b></p>' +
    '</body></html>';
  await editor.evaluate((element, data) => {
    const transfer = new DataTransfer();
    transfer.setData('text/html', data);
    transfer.setData('text/plain', 'Rates of reaction');
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, html);
  await expect(editor.locator('h2')).toHaveText('Rates of reaction');
  await expect(editor.locator('strong', { hasText: 'speeds' })).toBeVisible();
  await expect(editor.locator('em', { hasText: 'up' })).toBeVisible();
  await expect(editor.locator('a[href="https://example.org/rates"]')).toHaveText('read more');
  await expect(editor.locator('ul li')).toHaveCount(2);
  await expect(editor.locator('th', { hasText: 'Factor' })).toBeVisible();
  await expect(editor.locator('td', { hasText: 'Faster' })).toHaveAttribute('style', /text-align: right/);
  await expect(editor.locator('strong')).toHaveText(['speeds', 'Docs bold']);
  await expect(editor.locator('em', { hasText: 'docs italic' })).toBeVisible();
  await expect(editor.locator('[style*="color"], [class*="Mso"], [onclick]')).toHaveCount(0);
  await expect(editor).not.toContainText('OfficeDocumentSettings');
});

test('readers get MathML, highlighted code, a framed table, the callout and the footnote, with no script for math', async () => {
  const response = await page.goto(url(`/blog/${blogId}`));
  expect(response?.status()).toBe(200);
  const content = page.locator('.article-content');
  await expect(content.locator('.math-display math[display="block"] msqrt')).toBeVisible();
  await expect(content.locator('.math-display math')).toHaveCount(2);
  await expect(content.locator('p .math-inline math msup').first()).toBeVisible();
  await expect(content.locator('p .math-inline[tabindex="0"] math')).toHaveCount(1);
  await expect(content.getByText('cost $5 or $10 to learn.')).toBeVisible();
  await expect(content.locator('.math-error code')).toHaveText('\\frac{1}{');
  await expect(content.locator('ol li', { hasText: 'Work out the discriminant' })).toBeVisible();
  await expect(content.locator('.task-item input[type="checkbox"][aria-label="To do"]')).toBeDisabled();
  await expect(content.locator('.callout-remember .callout-title')).toHaveText('Remember');
  await expect(content.locator('.callout-example .callout-title')).toHaveText('Worked example');
  await expect(content.locator('ul li', { hasText: 'Pressure' })).toBeVisible();
  await expect(content.locator('blockquote')).toContainText('language of nature');
  await expect(content.locator('hr')).toHaveCount(1);
  await expect(content.locator('p > code')).toHaveText('print()');
  await expect(content.locator('pre.shiki')).toContainText('print(2 + 2)');
  await expect(content.getByRole('button', { name: 'Copy code' })).toBeVisible();
  await expect(content.locator('.table-scroll table thead th')).toHaveText(['Element', 'Symbol', 'Number']);
  await expect(content.locator('.table-scroll tbody tr')).toHaveCount(2);
  await expect(content.locator('.table-scroll td', { hasText: '11' })).toHaveCSS('text-align', 'right');
  await expect(content.locator('.table-scroll th', { hasText: 'Number' })).toHaveCSS('text-align', 'right');
  await expect(content.locator('.table-scroll')).not.toContainText('Spare');
  await expect(content.locator('.footnote-ref a')).toHaveAttribute('href', /^#fn-1$/);
  await expect(content.locator('.footnotes li')).toContainText('Written by hand in the exam.');
  await expect(page.locator('link[rel="stylesheet"][href^="/_astro/math."]')).toHaveCount(1);
  // The formulas are drawn with a math font: the reader's own, or the self-hosted one (none here).
  const mathFont = () =>
    page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((font) => font.family.replace(/"/g, '') === 'Study Math').map((f) => f.status);
    });
  await expect.poll(mathFont).toEqual(['loaded']);
  const scripts = await page
    .locator('script')
    .evaluateAll((list) => list.map((s) => (s as HTMLScriptElement).src + s.textContent));
  expect(scripts.filter((s) => /temml|katex|mathjax/i.test(s))).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [390, 1280]) {
    test(`the article page has no axe violation and nothing wider than the screen (${scheme}, ${width} px)`, async () => {
      const testInfo = test.info();
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url(`/blog/${blogId}`));
      await waitForNavScript(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.locator('.article-content').screenshot({ path: testInfo.outputPath(`study-${scheme}-${width}.png`) });
      const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
      expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }
}
