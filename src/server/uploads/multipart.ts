import { AppError } from '../errors.ts';

/** Room for the other form fields and the multipart boundaries around the one file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * A body refused part-way is left unread on the connection, so the answer closes it: a client
 * reusing the socket would otherwise send its next request behind the rest of this one.
 */
const tooLarge = (message: string) => new AppError('too_large', message, { headers: { Connection: 'close' } });

/**
 * An oversized body is read and dropped up to this size before the 413 goes out: closing a
 * connection with unread data resets it, and the client then sees a reset instead of the answer.
 * It matches the adapter's own bodySizeLimit (astro.config.mjs), past which the adapter ends it.
 */
const DRAIN_LIMIT = 21 * 1024 * 1024;

async function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number): Promise<void> {
  let size = alreadyRead;
  try {
    while (size <= DRAIN_LIMIT) {
      const { done, value } = await reader.read();
      if (done) return;
      size += value.byteLength;
    }
  } catch {
    return;
  }
  await reader.cancel().catch(() => undefined);
}

/**
 * Reads a multipart/form-data body whose file may be at most maxFileBytes. The type and the
 * declared length are checked before a byte is read, and the body is read with a running limit
 * (a chunked upload has no length to check), so an oversized upload is refused with 413 without
 * buffering it.
 */
export async function readMultipartForm(request: Request, maxFileBytes: number, tooLargeMessage: string): Promise<FormData> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(type)) {
    throw new AppError('unsupported_type', 'Send the upload as multipart/form-data.');
  }
  const maxBodyBytes = maxFileBytes + FORM_OVERHEAD_BYTES;
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    if (declared <= DRAIN_LIMIT && request.body) await dropRest(request.body.getReader(), 0);
    throw tooLarge(tooLargeMessage);
  }
  const body = await readBody(request, maxBodyBytes, tooLargeMessage);
  try {
    return await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('invalid_input', 'The upload could not be read as multipart/form-data.');
  }
}

async function readBody(request: Request, maxBytes: number, tooLargeMessage: string): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await dropRest(reader, size);
        throw tooLarge(tooLargeMessage);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The adapter's own bodySizeLimit ends the stream with this error.
    if (error instanceof Error && /body size limit/i.test(error.message)) throw tooLarge(tooLargeMessage);
    throw new AppError('invalid_input', 'The upload was interrupted.');
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

export interface UploadedFile {
  name: string;
  size: number;
  bytes: Buffer;
}

/** The named file field, or null when the form has no file there (an empty file counts as none). */
export async function readFormFile(form: FormData, field: string): Promise<UploadedFile | null> {
  const value = form.get(field);
  if (value === null || typeof value === 'string' || value.size === 0) return null;
  return { name: value.name, size: value.size, bytes: Buffer.from(await value.arrayBuffer()) };
}

/** A text field, or '' when it is missing or a file. */
export function readFormText(form: FormData, field: string): string {
  const value = form.get(field);
  return typeof value === 'string' ? value : '';
}
