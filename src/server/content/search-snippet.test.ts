import { describe, expect, it } from 'vitest';
import { describeMatchPlaces, pickSnippet, scanSnippet, snippetHtml } from './search-snippet.ts';

const O = '\u0002';
const C = '\u0003';

describe('snippetHtml', () => {
  it('escapes the text, then marks the matches', () => {
    expect(snippetHtml(`a <script>${O}alert${C}(1)</script> & "q" 'x'`)).toBe(
      'a &lt;script&gt;<mark>alert</mark>(1)&lt;/script&gt; &amp; &quot;q&quot; &#39;x&#39;',
    );
  });

  it('never leaves a mark open or closes one not opened', () => {
    expect(snippetHtml(`${C}a ${O}b ${O}c`)).toBe('a <mark>b c</mark>');
  });
});

describe('pickSnippet', () => {
  it('shows the text, else the PDF, and names every place that matched', () => {
    expect(pickSnippet({ title: `${O}T${C}`, body: `b ${O}x${C}`, pdf: 'p' })).toEqual({
      text: `b ${O}x${C}`,
      where: ['title', 'text'],
    });
    expect(pickSnippet({ title: 'T', body: 'b', pdf: `${O}p${C}` })).toEqual({ text: `${O}p${C}`, where: ['pdf'] });
    expect(pickSnippet({ title: `${O}T${C}`, body: 'opening', pdf: '' })).toEqual({ text: 'opening', where: ['title'] });
  });
});

describe('scanSnippet', () => {
  it('marks short runs found by a substring scan', () => {
    const snippet = scanSnippet({ title: '学习', body: '东京大学的数学', pdf: '' }, ['大学']);
    expect(snippet.where).toEqual(['text']);
    expect(snippetHtml(snippet.text)).toBe('东京<mark>大学</mark>的数学');
  });
});

describe('describeMatchPlaces', () => {
  it('names the places in words', () => {
    expect(describeMatchPlaces(['pdf'])).toBe('Matched in the attached PDF');
    expect(describeMatchPlaces(['title', 'text', 'pdf'])).toBe('Matched in the title, the text and the attached PDF');
    expect(describeMatchPlaces([])).toBe('');
  });
});
