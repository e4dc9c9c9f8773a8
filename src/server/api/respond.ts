import type { APIContext } from 'astro';
import { AppError, errorBody, isDiskFull, nothingSaved } from '../errors.ts';
import { readLimitedBody, refuseDeclaredTooLarge } from './body.ts';
import { BODY_LIMITS } from './body-limits.ts';

/** Helpers every /api endpoint uses, so all answers share one shape (docs/product.md#the-api). */

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

/** What a failed call answers: AppErrors their own status and body, a full disk 507; anything else is logged and a 500. */
export function failureOf(error: unknown, context: Pick<APIContext, 'request' | 'url'>): { status: number; body: unknown } {
  if (error instanceof AppError) return { status: error.status, body: errorBody(error) };
  // The write was rolled back; the log has SQLite's words once (db/write-health.ts).
  if (isDiskFull(error)) return failureOf(nothingSaved(), context);
  console.error(`[api] ${context.request.method} ${context.url.pathname} failed:`, error);
  return { status: 500, body: { error: 'internal', message: 'Something went wrong on the server.' } };
}

/** Wraps an endpoint: a thrown error becomes its JSON answer (failureOf). */
export function apiRoute(handler: (context: APIContext) => Promise<Response> | Response) {
  return async (context: APIContext): Promise<Response> => {
    try {
      return await handler(context);
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error);
      const { status, body } = failureOf(error, context);
      return json(body, status);
    }
  };
}

/** Reads a JSON object body: 415 for another content type, 413 when too large, 400 when not an object. */
export async function readJsonObject(request: Request, maxBytes: number = BODY_LIMITS.json): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new AppError('unsupported_type', 'Send the body as JSON (Content-Type: application/json).');
  }
  await refuseDeclaredTooLarge(request, maxBytes, `The body is larger than ${maxBytes} bytes.`);
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

async function readLimitedText(request: Request, maxBytes: number): Promise<string> {
  const body = await readLimitedBody(request, maxBytes, `The body is larger than ${maxBytes} bytes.`);
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/** Every method an endpoint file does not export answers 405 with a JSON body. */
export const methodNotAllowed = (allowed: string[] = []) =>
  json(
    { error: 'method_not_allowed', message: 'That method is not allowed here.' },
    405,
    allowed.length ? { Allow: allowed.join(', ') } : {},
  );
