import type { APIContext } from 'astro';
import { AppError, errorBody } from '../errors.ts';

/** Helpers every /api endpoint uses, so all answers share one shape (DESIGN.md section 4). */

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function noContent(): Response {
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

export function errorResponse(error: AppError): Response {
  return json(errorBody(error), error.status, error.headers ?? {});
}

/** Wraps an endpoint: AppErrors become their JSON answer; anything else is logged and a 500. */
export function apiRoute(handler: (context: APIContext) => Promise<Response> | Response) {
  return async (context: APIContext): Promise<Response> => {
    try {
      return await handler(context);
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error);
      console.error(`[api] ${context.request.method} ${context.url.pathname} failed:`, error);
      return json({ error: 'internal', message: 'Something went wrong on the server.' }, 500);
    }
  };
}

export const MAX_JSON_BYTES = 1024 * 1024;

/** Reads a JSON object body: 415 for another content type, 413 when too large, 400 when not an object. */
export async function readJsonObject(request: Request, maxBytes = MAX_JSON_BYTES): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError('unsupported_type', 'Send the body as JSON (Content-Type: application/json).');
  }
  // A declared length past maxBytes is still read (and dropped, in readLimitedText) up to
  // DRAIN_LIMIT: closing on an unread body resets the connection, and the client never sees the 413.
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > DRAIN_LIMIT) throw tooLarge(maxBytes);
  const text = await readLimitedText(request, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_json', 'The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('invalid_input', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function tooLarge(maxBytes: number): AppError {
  // Connection: close, so a client still sending the rest is not left on a half-read connection.
  return new AppError('too_large', `The body is larger than ${maxBytes} bytes.`, { headers: { Connection: 'close' } });
}

/** Past this, an oversized body is no longer drained to deliver a clean 413: the socket is reset. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > DRAIN_LIMIT) {
        await reader.cancel();
        break;
      }
      // Past the limit the rest is read and dropped, so the 413 reaches the client.
      if (size <= maxBytes) chunks.push(value);
    }
  } catch {
    throw new AppError('invalid_input', 'The request body could not be read.');
  }
  if (size > maxBytes) throw tooLarge(maxBytes);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every method an endpoint file does not export answers 405 with a JSON body. */
export const methodNotAllowed = (allowed: string[] = []) =>
  json(
    { error: 'method_not_allowed', message: 'That method is not allowed here.' },
    405,
    allowed.length ? { Allow: allowed.join(', ') } : {},
  );
