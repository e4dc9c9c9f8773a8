import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, SLIDES } from './demo-data.ts';
import {
  ILLUSTRATED_SUBJECTS,
  ILLUSTRATION_HEIGHT,
  ILLUSTRATION_WIDTH,
  SLIDE_COUNT,
  slideIllustration,
  subjectIllustration,
} from './demo-illustrations.ts';

describe('the demo pictures', () => {
  it('draw every demo subject and every slide', () => {
    for (const category of CATEGORIES) expect(ILLUSTRATED_SUBJECTS).toContain(category);
    expect(SLIDE_COUNT).toBe(SLIDES.length);
  });

  it('render to PNG with sharp, each different, each more than a gradient', async () => {
    const svgs = [...ILLUSTRATED_SUBJECTS.map(subjectIllustration), ...SLIDES.map((_, i) => slideIllustration(i))];
    expect(new Set(svgs).size).toBe(svgs.length);
    for (const svg of svgs) {
      const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([ILLUSTRATION_WIDTH, ILLUSTRATION_HEIGHT]);
      // The white line drawing: a gradient alone has no near-white pixel.
      const white = data.filter((value) => value > 240).length;
      expect(white).toBeGreaterThan(1000);
    }
  });

  it('falls back to the General drawing for a category of the publisher', () => {
    expect(subjectIllustration('Astronomy')).toBe(subjectIllustration('General'));
  });
});
