import { describe, expect, it } from 'vitest';
import { CAROUSEL_MESSAGES, validateCarouselInput } from './carousel.ts';
import { IMAGE_MAX_BYTES, UPLOAD_MESSAGES, checkPickedPdf } from './uploads.ts';

const file = (name: string, type: string, size = 1000) => ({ name, type, size });

describe('validateCarouselInput', () => {
  it('requires a title and an image', () => {
    expect(validateCarouselInput({ title: '', image: null }).errors).toEqual({
      title: CAROUSEL_MESSAGES.titleRequired,
      image: 'Please select an image file to upload.',
    });
    expect(validateCarouselInput({ title: ' Slide ', image: file('a.png', 'image/png') })).toEqual({
      values: { title: 'Slide' },
      errors: {},
    });
  });

  it('takes JPG, PNG, GIF and WEBP up to 5MB', () => {
    for (const [name, type] of [
      ['a.jpg', 'image/jpeg'],
      ['a.png', 'image/png'],
      ['a.gif', 'image/gif'],
      ['a.webp', 'image/webp'],
      ['a.webp', ''],
    ]) {
      expect(validateCarouselInput({ title: 'T', image: file(name!, type!) }).errors).toEqual({});
    }
    for (const [name, type] of [
      ['a.svg', 'image/svg+xml'],
      ['a.bmp', 'image/bmp'],
      ['a.txt', ''],
      ['a.html', 'text/html'],
    ]) {
      expect(validateCarouselInput({ title: 'T', image: file(name!, type!) }).errors).toEqual({
        image: UPLOAD_MESSAGES.imageType,
      });
    }
    expect(validateCarouselInput({ title: 'T', image: file('a.png', 'image/png', IMAGE_MAX_BYTES) }).errors).toEqual({});
    expect(validateCarouselInput({ title: 'T', image: file('a.png', 'image/png', IMAGE_MAX_BYTES + 1) }).errors).toEqual({
      image: UPLOAD_MESSAGES.imageTooLarge,
    });
  });
});

describe('validateCarouselInput on the server', () => {
  it('only asks that an image came: the bytes decide its type', () => {
    expect(validateCarouselInput({ title: 'T', image: file('upload', '') }, { imageCheck: 'presence' }).errors).toEqual({});
    expect(validateCarouselInput({ title: ' ', image: null }, { imageCheck: 'presence' }).errors).toEqual({
      title: CAROUSEL_MESSAGES.titleRequired,
      image: UPLOAD_MESSAGES.imageMissing,
    });
  });
});

describe('checkPickedPdf', () => {
  it('takes .pdf files only, up to 20MB', () => {
    expect(checkPickedPdf(file('notes.PDF', 'application/pdf'))).toBeNull();
    expect(checkPickedPdf(file('notes.pdf', ''))).toBeNull();
    expect(checkPickedPdf(file('notes.docx', 'application/pdf'))).toBe(UPLOAD_MESSAGES.pdfType);
    expect(checkPickedPdf(file('notes.pdf', 'text/html'))).toBe(UPLOAD_MESSAGES.pdfType);
    expect(checkPickedPdf(file('notes.pdf', 'application/pdf', 20 * 1024 * 1024 + 1))).toBe(UPLOAD_MESSAGES.pdfTooLarge);
    expect(checkPickedPdf(null)).toBe(UPLOAD_MESSAGES.pdfMissing);
  });
});
