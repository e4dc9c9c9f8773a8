import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { feedXml, type FeedItem } from './feed.ts';
import { renderArticleHtml } from './render-article.ts';

const channel = { origin: 'https://notes.example', title: 'Notes', description: 'Study notes', language: 'en' };

async function item(id: number, stored: string): Promise<FeedItem> {
  return {
    id,
    title: `Article ${id}`,
    author: 'Teacher',
    image: null,
    category_id: 1,
    category_name: 'Mathematics',
    pdf_drive_link: null,
    is_video: 0,
    video_link: null,
    created_at: '2026-11-20T10:00:00.000Z',
    clicks: 0,
    excerpt: 'The roots are x = ...',
    html: (await renderArticleHtml(stored)).html,
  } as FeedItem;
}

/** Each item's text of one element, as a feed reader's XML parser reads it (well-formedness included). */
function texts(xml: string, element: string): string[] {
  const parser = new SaxesParser({ xmlns: false });
  const found: string[] = [];
  let inside = false;
  parser.on('opentag', (tag) => {
    if (tag.name !== element) return;
    inside = true;
    found.push('');
  });
  parser.on('closetag', (tag) => {
    if (tag.name === element) inside = false;
  });
  parser.on('text', (text) => {
    if (inside) found[found.length - 1] += text;
  });
  parser.write(xml).close();
  return found;
}

describe('feedXml', () => {
  it("carries each article's body with its formulas as MathML in content:encoded", async () => {
    const xml = feedXml(channel, [
      await item(7, '<p>The roots are <span data-type="math_inline">x = \\frac{-b}{2a}</span>.</p>'),
      await item(8, '<p>No formulas & no code.</p>'),
    ]);
    expect(xml).toContain('xmlns:content="http://purl.org/rss/1.0/modules/content/"');
    const bodies = texts(xml, 'content:encoded');
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatch(/<math><semantics><mrow><mi>x<\/mi><mo>=<\/mo><mfrac>/);
    expect(bodies[0]).toContain('<annotation encoding="application/x-tex">x = \\frac{-b}{2a}</annotation>');
    expect(bodies[1]).toBe('<p>No formulas &amp; no code.</p>');
    expect(texts(xml, 'description')).toEqual(['Study notes', 'The roots are x = ...', 'The roots are x = ...']);
  });

  it('makes site-relative addresses absolute and points footnotes into the article page', async () => {
    const xml = feedXml(channel, [
      await item(
        9,
        '<p><img src="/uploads/cell.png" alt="Cell"> <a href="/blog/3">before</a> <a href="//evil.example/x">x</a>' +
          'Fact<sup data-type="footnote_reference" data-label="1">1</sup></p>' +
          '<dl data-type="footnote_definition" data-label="1"><dt>1</dt><dd><p>Source.</p></dd></dl>',
      ),
    ]);
    const [body] = texts(xml, 'content:encoded');
    expect(body).toContain('src="https://notes.example/uploads/cell.png"');
    expect(body).toContain('href="https://notes.example/blog/3"');
    expect(body).toContain('href="//evil.example/x"');
    expect(body).toContain('href="https://notes.example/blog/9#fn-1"');
    expect(body).toContain('href="https://notes.example/blog/9#fnref-1"');
  });
});
