import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Assets worth compressing: text, and OpenType fonts (woff2 and images are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|otf)$/i;

export interface PrecompressSummary {
  files: number;
  bytes: number;
  brBytes: number;
  gzipBytes: number;
}

/**
 * Writes `<file>.br` and `<file>.gz` beside each text asset of a folder (the hashed /_astro
 * files), at the strongest settings: done once per build, so readers get brotli 11 and gzip 9
 * without the server spending a core on it, and a start costs nothing. A coding that does not
 * make a file smaller is not written (the server then sends the file as it is).
 */
export async function precompressAssets(dir: string): Promise<PrecompressSummary> {
  const summary: PrecompressSummary = { files: 0, bytes: 0, brBytes: 0, gzipBytes: 0 };
  if (!fs.existsSync(dir)) return summary;
  const files = fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
  await Promise.all(
    files.map(async (file) => {
      const body = fs.readFileSync(file);
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      summary.files++;
      summary.bytes += body.length;
      summary.brBytes += writeIfSmaller(`${file}.br`, br, body.length);
      summary.gzipBytes += writeIfSmaller(`${file}.gz`, gz, body.length);
    }),
  );
  return summary;
}

function writeIfSmaller(file: string, encoded: Buffer, originalSize: number): number {
  if (encoded.length >= originalSize) {
    fs.rmSync(file, { force: true });
    return originalSize;
  }
  fs.writeFileSync(file, encoded);
  return encoded.length;
}
