import { AppError } from '../errors.ts';

/**
 * Reading request bodies with a limit, shared by the JSON endpoints and the uploads.
 *
 * A body refused part-way is left unread on the connection, so the answer closes it: a client
 * reusing the socket would otherwise send its next request behind the rest of this one.
 */
export const tooLarge = (message: string) => new AppError('too_large', message, { headers: { Connection: 'close' } });

/**
 * An oversized body is read and dropped up to this size before the 413 goes out: closing a
 * connection with unread data resets it, and the client then sees a reset instead of the answer.
 * It matches the adapter's own bodySizeLimit (astro.config.mjs), past which the adapter ends it.
 */
const DRAIN_LIMIT = 21 * 1024 * 1024;

/**
 * Refuses a body whose declared length is past maxBytes before reading it: one that fits under
 * the drain cap is read and dropped first (so the 413 arrives), a larger one is answered at once.
 */
export async function refuseDeclaredTooLarge(request: Request, maxBytes: number, message: string): Promise<void> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (!Number.isFinite(declared) || declared <= maxBytes) return;
  if (declared <= DRAIN_LIMIT && request.body) await dropRest(request.body.getReader());
  throw tooLarge(message);
}

async function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead = 0): Promise<void> {
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
 * The whole body, at most maxBytes: 413 (with Connection: close) past that, 400 when the client
 * stops sending part-way. A chunked body has no length to check first, so the limit runs as it reads.
 */
export async function readLimitedBody(
  request: Request,
  maxBytes: number,
  tooLargeMessage: string,
): Promise<Uint8Array<ArrayBuffer>> {
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
    throw new AppError('invalid_input', 'The request body could not be read.');
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
