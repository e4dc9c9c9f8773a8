import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/**
 * The export archive's container: a gzip-compressed POSIX tar (ustar) of regular files, which
 * `tar xzf` opens anywhere. Written and read here in a few dozen lines rather than with a
 * library, because the reader is where a hostile archive is met: it accepts regular files only
 * (no links, devices or folders), names of plain relative segments (no `..`, no absolute path),
 * and stops at the size limits while decompressing, so a compression bomb never fills the disk.
 */

const BLOCK = 512;

export interface TarEntry {
  /** A relative path with `/` between segments. */
  name: string;
  size: number;
  /** The bytes, or a function opening them as a stream (a large upload is never held in memory). */
  body: Buffer | (() => NodeJS.ReadableStream);
}

export class ArchiveError extends Error {}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** A ustar header; names over 100 bytes are split into prefix and name at a `/`. `type` '0': a regular file. */
export function tarHeader(name: string, size: number, mtime: number, type = '0'): Buffer {
  const block = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(0, cut)) > 155 || Buffer.byteLength(name.slice(cut + 1)) > 100)
      throw new ArchiveError(`A file name is too long for the archive: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  block.write(base, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(mtime, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes the entries as a .tar.gz at `file` (into `file.partial`, renamed when whole). */
export async function writeTarGz(
  file: string,
  entries: AsyncIterable<TarEntry> | Iterable<TarEntry>,
  mtime = new Date(),
): Promise<void> {
  const seconds = Math.floor(mtime.getTime() / 1000);
  async function* blocks(): AsyncGenerator<Buffer> {
    for await (const entry of entries) {
      yield tarHeader(entry.name, entry.size, seconds);
      let written = 0;
      if (Buffer.isBuffer(entry.body)) {
        written = entry.body.length;
        yield entry.body;
      } else {
        for await (const chunk of entry.body() as AsyncIterable<Buffer>) {
          written += chunk.length;
          yield chunk;
        }
      }
      if (written !== entry.size)
        throw new ArchiveError(`${entry.name} changed while it was being written (${written} bytes, not ${entry.size}).`);
      yield padding(entry.size);
    }
    yield Buffer.alloc(BLOCK * 2);
  }
  const partial = `${file}.partial`;
  try {
    await pipeline(blocks(), zlib.createGzip({ level: 6 }), fs.createWriteStream(partial));
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

export interface TarLimits {
  /** Bytes of all entries together, counted while decompressing. */
  totalBytes: number;
  entries: number;
}

/** A name of plain relative segments: no `..`, `.`, empty segment, backslash, NUL or leading `/`. */
export function isPlainRelativeName(name: string): boolean {
  if (name === '' || name.length > 1024 || /[\\\0]/.test(name) || name.startsWith('/')) return false;
  return name.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

function readString(block: Buffer, start: number, length: number): string {
  const slice = block.subarray(start, start + length);
  const end = slice.indexOf(0);
  return slice.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, start: number, length: number): number {
  const text = readString(block, start, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError('The archive is damaged: a size is not a number.');
  return parseInt(text, 8);
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return sum === readOctal(block, 148, 8);
}

/**
 * Reads a .tar.gz, calling `onEntry` with each file's name and bytes in archive order. Throws an
 * ArchiveError (before the entry is handed over) for anything but a regular file with a plain
 * relative name, for a damaged archive, and past the limits.
 */
export async function readTarGz(
  file: string,
  limits: TarLimits,
  onEntry: (name: string, body: Buffer) => Promise<void> | void,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let total = 0;
  let count = 0;
  let ended = false;
  let current: { name: string; size: number; parts: Buffer[]; got: number } | null = null;
  const gunzip = zlib.createGunzip();
  fs.createReadStream(file)
    .on('error', (error) => gunzip.destroy(error))
    .pipe(gunzip);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limits.totalBytes)
        throw new ArchiveError(`The archive unpacks to more than ${Math.round(limits.totalBytes / 1024 / 1024)} MB.`);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (ended) break;
        if (current) {
          const want = current.size - current.got;
          const take = Math.min(want, pending.length);
          if (take > 0) {
            current.parts.push(pending.subarray(0, take));
            current.got += take;
            pending = pending.subarray(take);
          }
          if (current.got < current.size) break;
          const pad = (BLOCK - (current.size % BLOCK)) % BLOCK;
          if (pending.length < pad) break;
          pending = pending.subarray(pad);
          const done = current;
          current = null;
          await onEntry(done.name, Buffer.concat(done.parts));
          continue;
        }
        if (pending.length < BLOCK) break;
        const block = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (block.every((byte) => byte === 0)) {
          ended = true;
          break;
        }
        if (!checksumOk(block))
          throw new ArchiveError('The archive is damaged or not a tar archive (a header checksum is wrong).');
        const type = String.fromCharCode(block[156]!);
        const prefix = readString(block, 345, 155);
        const name = prefix ? `${prefix}/${readString(block, 0, 100)}` : readString(block, 0, 100);
        if (type !== '0' && type !== '\0')
          throw new ArchiveError(
            `The archive holds something other than a plain file (type "${type}") at ${JSON.stringify(name)}.`,
          );
        if (!isPlainRelativeName(name))
          throw new ArchiveError(`The archive names a file outside its own folder: ${JSON.stringify(name)}.`);
        if (++count > limits.entries) throw new ArchiveError(`The archive holds more than ${limits.entries} files.`);
        current = { name, size: readOctal(block, 124, 12), parts: [], got: 0 };
        if (current.size > limits.totalBytes) throw new ArchiveError(`${name} is larger than the archive may unpack to.`);
      }
    }
  } finally {
    gunzip.destroy();
  }
  if (current || !ended) throw new ArchiveError('The archive is cut short.');
}
