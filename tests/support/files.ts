import sharp from 'sharp';
import { drawDemoPdf, drawDemoPng, encodePng } from '../../db/seed/demo-files.ts';

/**
 * Files for tests and benchmarks. The PNG and PDF drawings are the demo seed's (db/seed/demo-files.ts),
 * so one generator per file type serves the seed, the tests and the benchmarks.
 */

/** A real PNG with a gradient and soft circles (so the encoder has something to do), optionally with EXIF. */
export async function makePng(width: number, height: number, options: { exif?: boolean } = {}): Promise<Buffer> {
  const png = drawDemoPng([40, 90, 200], [200, 60, 60], width + height, width, height);
  if (!options.exif) return png;
  return sharp(png)
    .png()
    .withExif({ IFD0: { Copyright: 'EXIF-MARKER-png' } })
    .toBuffer();
}

/** A JPEG carrying EXIF with a marker text and an orientation tag. */
export function makeJpegWithExif(width: number, height: number, orientation = 1): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'EXIF-MARKER-secret', Artist: 'EXIF-MARKER-artist' } })
    .withMetadata({ orientation })
    .toBuffer();
}

/** A small but valid one-page PDF with a title and, if given, a few lines of text. */
export function makePdf(title = 'Hello', lines: string[] = []): Buffer {
  return drawDemoPdf(title, lines);
}

/** A PNG whose header claims the given size over a few zero bytes of pixels (a decompression-bomb shape). */
export function makePngHeaderOnly(width: number, height: number): Buffer {
  return encodePng(width, height, Buffer.alloc(1024));
}
