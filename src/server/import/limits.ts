import { AppError } from '../errors.ts';

/**
 * What an import file may be. A real export of a large site is tens of megabytes; past these a
 * file is refused before anything is written, with the reason.
 */
export const IMPORT_LIMITS = {
  /** Bytes of a WXR, Ghost JSON or export archive's content file. */
  fileBytes: 256 * 1024 * 1024,
  /** Elements (XML) or arrays and objects (JSON) inside each other; real exports use under 10. */
  depth: 64,
  /** Bytes of one uploaded file taken from an uploads folder. */
  uploadBytes: 32 * 1024 * 1024,
} as const;

export const IMPORT_MESSAGES = {
  tooLarge: `The import file is larger than ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB.`,
  doctype:
    'The file declares a DOCTYPE. WordPress exports never do, and a DOCTYPE can define entities that expand a file a billion times or read files from the server, so it is refused.',
  tooDeep: `The file nests elements more than ${IMPORT_LIMITS.depth} levels deep; a real export never does.`,
  notWxr: 'This is not a WordPress export (WXR): no <rss> with a <channel> was found.',
  notGhost: 'This is not a Ghost export: no db[0].data.posts was found.',
  unknownFormat: 'The file is neither a WordPress export (.xml), a Ghost export (.json) nor an export of this site.',
  unreadable: (reason: string) => `The file could not be read: ${reason}`,
  badXml: (reason: string) => `The file is not well-formed XML: ${reason}`,
  badJson: (reason: string) => `The file is not valid JSON: ${reason}`,
} as const;

export const refused = (message: string) => new AppError('unprocessable', message);
export const tooLarge = () => new AppError('too_large', IMPORT_MESSAGES.tooLarge);

/** JSON nested past IMPORT_LIMITS.depth is refused before it is parsed. */
export function checkJsonDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > IMPORT_LIMITS.depth) throw refused(IMPORT_MESSAGES.tooDeep);
    } else if (c === 125 || c === 93) depth--;
  }
}
