import fs from 'node:fs';
import zlib from 'node:zlib';
import { IMPORT_LIMITS, refused } from './limits.ts';
import { isSafeRelativePath, type UploadSource } from './upload-source.ts';

/**
 * The old site's uploads as a zip (`--uploads uploads.zip`, a zip of `wp-content/uploads`). The
 * central directory is read and checked whole before anything is written: a name that would leave
 * the folder (`../../x`, `/etc/x`, a backslash, a drive letter) refuses the whole zip with the
 * name, as does a zip that is damaged or too large. Files are read on demand, inflated with an
 * output limit (no compression bomb), and a name the export asks for is found whether the zip
 * holds `uploads/2024/06/a.jpg`, `wp-content/uploads/2024/06/a.jpg` or `2024/06/a.jpg`.
 */

const MAX_ENTRIES = 200_000;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

interface ZipEntry {
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The folder prefixes a zip of an uploads folder may have around the paths the export names. */
const PREFIXES = [/^wp-content\/uploads\//, /^uploads\//, /^content\/images\//, /^images\//];

function readEntries(buffer: Buffer): Map<string, ZipEntry> {
  const searchFrom = Math.max(0, buffer.length - 22 - 0xffff);
  let end = -1;
  for (let at = buffer.length - 22; at >= searchFrom; at--)
    if (buffer.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  if (end === -1) throw refused('The uploads file is not a zip archive (no central directory).');
  const count = buffer.readUInt16LE(end + 10);
  let at = buffer.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff)
    throw refused('The uploads zip uses ZIP64, which is not read here; zip the folder in smaller parts.');
  if (count > MAX_ENTRIES) throw refused(`The uploads zip holds more than ${MAX_ENTRIES} files.`);
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > buffer.length || buffer.readUInt32LE(at) !== CENTRAL_HEADER) throw refused('The uploads zip is damaged.');
    const flags = buffer.readUInt16LE(at + 8);
    const method = buffer.readUInt16LE(at + 10);
    const compressedSize = buffer.readUInt32LE(at + 20);
    const size = buffer.readUInt32LE(at + 24);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const localOffset = buffer.readUInt32LE(at + 42);
    const name = buffer.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue; // a folder
    if (!isSafeRelativePath(name) || /^[a-z]:/i.test(name))
      throw refused(`The uploads zip names a file outside its own folder: ${JSON.stringify(name)}. Nothing was written.`);
    if (flags & 0x1) throw refused(`The uploads zip is encrypted (${name}).`);
    entries.set(name, { method, compressedSize, size, localOffset });
  }
  return entries;
}

function inflate(buffer: Buffer, name: string, entry: ZipEntry): Buffer | null {
  if (entry.size > IMPORT_LIMITS.uploadBytes) return null;
  const at = entry.localOffset;
  if (at + 30 > buffer.length || buffer.readUInt32LE(at) !== LOCAL_HEADER)
    throw refused(`The uploads zip is damaged at ${name}.`);
  const start = at + 30 + buffer.readUInt16LE(at + 26) + buffer.readUInt16LE(at + 28);
  const data = buffer.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method !== 8) return null;
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: IMPORT_LIMITS.uploadBytes });
  } catch {
    return null;
  }
}

/** Opens the zip (read whole: an uploads zip is refused past the import's file size limit). */
export function zipSource(file: string): UploadSource {
  const size = fs.statSync(file).size;
  if (size > 4 * IMPORT_LIMITS.fileBytes)
    throw refused(
      `The uploads zip is larger than ${(4 * IMPORT_LIMITS.fileBytes) / 1024 / 1024} MB; unzip it and give the folder.`,
    );
  const buffer = fs.readFileSync(file);
  const entries = readEntries(buffer);
  const byPath = new Map<string, string>();
  for (const name of entries.keys()) {
    byPath.set(name, name);
    for (const prefix of PREFIXES) {
      const match = prefix.exec(name);
      if (match) byPath.set(name.slice(match[0].length), name);
    }
  }
  return {
    read(relativePath) {
      if (!isSafeRelativePath(relativePath)) return Promise.resolve(null);
      const name = byPath.get(relativePath);
      return Promise.resolve(name ? inflate(buffer, name, entries.get(name)!) : null);
    },
  };
}

/** True when the file starts as a zip does. */
export function isZipFile(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    return fs.readSync(fd, head, 0, 4, 0) === 4 && head.readUInt32LE(0) === LOCAL_HEADER;
  } finally {
    fs.closeSync(fd);
  }
}
