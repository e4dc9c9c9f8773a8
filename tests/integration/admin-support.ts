import { expect } from 'vitest';
import sharp from 'sharp';
import type { TestServer } from '../support/server.ts';

/** Helpers shared by the admin-*.test.ts files: JSON calls, multipart uploads, test images. */

export type Json = Record<string, unknown>;

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function call(server: TestServer, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(server.url(path), init);
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

export function sendJson(server: TestServer, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return call(server, path, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

export function sendForm(
  server: TestServer,
  path: string,
  fields: Record<string, string | Blob | { data: Uint8Array; name: string; type?: string }>,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string' || value instanceof Blob) form.append(name, value);
    else
      form.append(name, new Blob([new Uint8Array(value.data)], { type: value.type ?? 'application/octet-stream' }), value.name);
  }
  return call(server, path, { method: 'POST', headers, body: form });
}

export function expectError(answer: Answer, status: number, code?: string): Json {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const body = answer.body as Json;
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  if (code) expect(body.error).toBe(code);
  return body;
}

export async function page(server: TestServer, path: string): Promise<{ status: number; html: string }> {
  const response = await fetch(server.url(path));
  return { status: response.status, html: await response.text() };
}

/** A real PNG with a gradient (so the encoder has something to do), optionally with EXIF. */
export async function makePng(width: number, height: number, options: { exif?: boolean } = {}): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      raw[at] = (x * 255) / width;
      raw[at + 1] = (y * 255) / height;
      raw[at + 2] = 128;
    }
  }
  const png = sharp(raw, { raw: { width, height, channels: 3 } }).png();
  return (options.exif ? png.withExif({ IFD0: { Copyright: 'EXIF-MARKER-png' } }) : png).toBuffer();
}

/** A JPEG carrying EXIF with a marker text and an orientation tag. */
export function makeJpegWithExif(width: number, height: number, orientation = 1): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'EXIF-MARKER-secret', Artist: 'EXIF-MARKER-artist' } })
    .withMetadata({ orientation })
    .toBuffer();
}

/** A small but valid one-page PDF. */
export function makePdf(text = 'Hello'): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${`BT /F1 12 Tf 20 100 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 12 Tf 20 100 Td (${text}) Tj ET\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The write body (POST/PUT /api/blogs) that keeps a blog as the API returned it, with overrides. */
export function writeBodyFromBlog(blog: Json, overrides: Json = {}): Json {
  return {
    title: blog.title,
    content: blog.content,
    content_source: blog.content_source ?? '',
    category_id: blog.category_id,
    image: blog.image ?? '',
    pdf_link: blog.pdf_drive_link ?? '',
    isVideo: blog.isVideo,
    video_link: blog.video_link ?? '',
    payment_link: blog.pay_link ?? '',
    form_name: blog.form_name ?? '',
    form_link: blog.form_link ?? '',
    ...overrides,
  };
}
