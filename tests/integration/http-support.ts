import http from 'node:http';
import { expect } from 'vitest';
import type { Json } from '../support/builders.ts';
import type { TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';
import type { PageRefreshStatus } from '../../src/shared/api-types/answers.ts';

/** HTTP helpers shared by the integration tests: JSON calls, multipart uploads, error answers. */

export type { Json };

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/**
 * fetch, sent once more when the first try never left: on a busy machine this process can be too
 * slow to notice that the server closed an idle keep-alive socket, and fetch then writes the
 * request into the closed socket (EPIPE). Nothing reached the server, so sending again is safe.
 */
async function fetchResendingOnEpipe(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'EPIPE') throw error;
    return fetch(url, init);
  }
}

export async function call(server: TestServer, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetchResendingOnEpipe(server.url(path), init);
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body, text };
}

export function sendJson(server: TestServer, method: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  return call(server, path, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

/** A file in a multipart body: its bytes, its file name and (if given) its Content-Type. */
/** The first category (by sequence) renamed `name` by an admin: the category as it was and the save's answer. */
export async function renameFirstCategory(server: TestServer, name: string, headers: Record<string, string>) {
  const categories = (await call(server, '/api/categories')).body as Array<{ id: number; name: string; sequence: number }>;
  const category = categories[0]!;
  const answer = await sendJson(server, 'PUT', `/api/categories/${category.id}`, { name, sequence: category.sequence }, headers);
  return { category, answer };
}

export interface FilePart {
  data: Uint8Array;
  name: string;
  type?: string;
}

export function sendForm(
  server: TestServer,
  path: string,
  fields: Record<string, string | Blob | FilePart>,
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

/** Uploads an image the way the blog form does (field `image`). */
export function uploadImage(server: TestServer, file: FilePart, headers: Record<string, string>): Promise<Answer> {
  return sendForm(server, '/api/blogs/upload-image-cloudinary', { image: file }, headers);
}

/** Uploads a PDF the way the blog form does (field `pdfFile`). */
export function uploadPdf(server: TestServer, file: FilePart, headers: Record<string, string>): Promise<Answer> {
  return sendForm(server, '/api/blogs/upload-pdf-local', { pdfFile: file }, headers);
}

/** What a request on its own connection got: status, which process answered, the page store's state. */
export interface FreshAnswer {
  status: number;
  process: string | null;
  state: string | null;
  cache: string | null;
  body: string;
}

/**
 * A request on a connection of its own (no keep-alive agent), so the cluster hands it to any of
 * its serving processes. A process killed mid-answer cuts the answer short: that request failed,
 * it is not a hang; an answer that never comes is a hang guard's failure, not a budget.
 */
export function onFreshConnection(
  origin: string,
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<FreshAnswer> {
  return new Promise<FreshAnswer>((resolve, reject) => {
    const options = { method: init.method ?? 'GET', headers: init.headers, agent: false, localAddress: init.localAddress };
    const request = http.request(origin + target, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('answer cut short')));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          process: (res.headers['x-process'] as string | undefined) ?? null,
          state: (res.headers['x-page-store'] as string | undefined) ?? null,
          cache: (res.headers['x-cache'] as string | undefined) ?? null,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    request.on('error', reject);
    request.setTimeout(120_000, () => request.destroy(new Error(`no answer to ${target} in 120 s`)));
    request.end(init.body);
  });
}

/** The admin's view of the background refresh (every serving process's, as each last told). `T`: the fields a test reads. */
export async function refreshStatus<T extends { queued: number } = PageRefreshStatus>(
  server: TestServer,
  headers: Record<string, string>,
): Promise<T> {
  return (await call(server, '/api/admin/page-refresh', { headers })).body as T;
}

/** Waits until no serving process has a page of the background refresh queued or running; answers that status. */
export function untilRefreshDrained<T extends { queued: number } = PageRefreshStatus>(
  server: TestServer,
  headers: Record<string, string>,
): Promise<T> {
  return until(
    () => refreshStatus<T>(server, headers),
    (status) => status.queued === 0,
    'the background refresh to drain',
  );
}

/**
 * Waits until every serving process says, of itself, that its background refresh has nothing
 * queued or running. A process tells its siblings how its queue moves a few times a second, so one
 * process's drained status can predate a page a reader's request just queued in the other; each
 * process's own part is exact, so a zero from each, asked on fresh connections, is the whole truth.
 */
export async function untilRefreshDrainedEverywhere(
  server: TestServer,
  headers: Record<string, string>,
  processes = 2,
): Promise<void> {
  const drained = new Set<string>();
  await until(
    async () => {
      const answer = await onFreshConnection(server.origin, '/api/admin/page-refresh', { headers });
      expect(answer.status).toBe(200);
      if (answer.process === null) throw new Error('the server does not say which process answered');
      if ((JSON.parse(answer.body) as { queued: number }).queued === 0) drained.add(answer.process);
      else drained.clear();
      return drained.size;
    },
    (size) => size >= processes,
    'every serving process to drain its background refresh',
  );
}
