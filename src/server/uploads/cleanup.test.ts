import { describe, expect, it } from 'vitest';
import { findUploadGroups } from './cleanup.ts';

describe('findUploadGroups', () => {
  it('finds uploaded images (all widths as one) and PDFs in any text', () => {
    const groups = findUploadGroups([
      '/uploads/images/abc123-w1600.webp',
      '<p><img src="http://site.example/uploads/images/abc123-w480.webp"><a href="/uploads/pdfs/f00d.pdf">pdf</a></p>',
      null,
      '![x](/uploads/images/def456-w960.webp)',
      '/uploads/demo/cover-1.png https://elsewhere.example/uploads/pdfs/NOTOURS.pdf',
    ]);
    expect(groups).toEqual([
      { needle: '/uploads/images/abc123-w', paths: ['images/abc123-w480.webp', 'images/abc123-w960.webp', 'images/abc123-w1600.webp'] },
      { needle: '/uploads/pdfs/f00d.pdf', paths: ['pdfs/f00d.pdf'] },
      { needle: '/uploads/images/def456-w', paths: ['images/def456-w480.webp', 'images/def456-w960.webp', 'images/def456-w1600.webp'] },
    ]);
  });
});
