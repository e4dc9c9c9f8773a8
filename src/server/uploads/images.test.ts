import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { detectImageFormat, encodeImageVariants } from './images.ts';

const solid = (format: 'png' | 'jpeg' | 'gif' | 'webp', width = 64, height = 32) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } })[format]().toBuffer();

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.code}`;
    throw error;
  }
  return 'ok';
}

describe('detectImageFormat', () => {
  it('knows the four formats by signature only', async () => {
    for (const format of ['png', 'jpeg', 'gif', 'webp'] as const) expect(detectImageFormat(await solid(format))).toBe(format);
    expect(detectImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageFormat(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(detectImageFormat(Buffer.from('%PDF-1.7'))).toBeNull();
    expect(detectImageFormat(Buffer.alloc(0))).toBeNull();
  });
});

describe('encodeImageVariants', () => {
  it('writes WebP at 480, 960 and 1600 wide without enlarging', async () => {
    const variants = await encodeImageVariants(await solid('jpeg', 1000, 500));
    expect(variants.map((v) => [v.width, v.outWidth, v.outHeight])).toEqual([
      [480, 480, 240],
      [960, 960, 480],
      [1600, 1000, 500],
    ]);
    for (const v of variants) expect((await sharp(v.data).metadata()).format).toBe('webp');
  });

  it('answers 415 for other types, 422 for unreadable or oversized pictures, 413 for too many bytes', async () => {
    expect(await codeOf(encodeImageVariants(Buffer.from('<html></html>')))).toBe('415 unsupported_type');
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).tiff().toBuffer();
    expect(await codeOf(encodeImageVariants(tiff))).toBe('415 unsupported_type');
    const png = await solid('png');
    expect(await codeOf(encodeImageVariants(png.subarray(0, 40)))).toBe('422 unprocessable');
    expect(await codeOf(encodeImageVariants(Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)])))).toBe('413 too_large');
  });
});
