import { AppError } from '../errors.ts';
import { readLimitedBody, refuseDeclaredTooLarge } from './body.ts';

/** Room for the other form fields and the multipart boundaries around the one file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

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
  await refuseDeclaredTooLarge(request, maxBodyBytes, tooLargeMessage);
  const body = await readLimitedBody(request, maxBodyBytes, tooLargeMessage);
  try {
    return await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('invalid_input', 'The upload could not be read as multipart/form-data.');
  }
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
