import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { APIContext } from 'astro';
import { route } from './route.ts';
import { json } from './respond.ts';
import { invalidInput } from '../errors.ts';

const call = (handler: (context: APIContext) => Promise<Response> | Response, method: string) => {
  const url = new URL('http://site.test/api/thing');
  return handler({ request: new Request(url, { method }), url } as unknown as APIContext);
};

describe('route', () => {
  const { GET, PUT, DELETE, ALL } = route({
    GET: () => json({ ok: true }),
    PUT: () => {
      throw invalidInput('Nope.');
    },
    DELETE: () => json({ gone: true }),
  });

  it('answers HEAD like GET', async () => {
    const answer = await call(ALL, 'HEAD');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true });
    expect(await (await call(GET, 'GET')).json()).toEqual({ ok: true });
    expect((await call(DELETE, 'DELETE')).status).toBe(200);
  });

  it('answers an AppError as its JSON error', async () => {
    const answer = await call(PUT, 'PUT');
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'invalid_input', message: 'Nope.' });
  });

  it('answers every other method with the JSON 405 and Allow: GET, HEAD, then the rest in order', async () => {
    const answer = await call(ALL, 'PATCH');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE');
    expect(await answer.json()).toEqual({ error: 'method_not_allowed', message: 'That method is not allowed here.' });
  });

  it('names GET, HEAD for a read-only route', async () => {
    const { ALL: readOnly } = route({ GET: () => json([]) });
    expect((await call(readOnly, 'DELETE')).headers.get('allow')).toBe('GET, HEAD');
  });

  it('leaves HEAD out without a GET, or when asked to', async () => {
    const { ALL: writeOnly } = route({ PUT: () => json({}), DELETE: () => json({}) });
    const head = await call(writeOnly, 'HEAD');
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('PUT, DELETE');
    const { ALL: noHead } = route({ GET: () => json([]) }, { head: false });
    const answer = await call(noHead, 'HEAD');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
  });

  it('answers a write refused for want of space with 507 storage_full, never the raw error', async () => {
    const { POST } = route({
      POST: () => {
        // A database that may not grow answers as on a full disk.
        const db = new SQLite(':memory:');
        db.exec('create table notes (text text)');
        db.pragma(`max_page_count = ${Number(db.pragma('page_count', { simple: true }))}`);
        db.prepare('insert into notes (text) values (?)').run('x'.repeat(64 * 1024));
        return json({ saved: true }, 201);
      },
    });
    const answer = await call(POST, 'POST');
    expect(answer.status).toBe(507);
    expect(await answer.json()).toEqual({
      error: 'storage_full',
      message: "The server's disk is full, so nothing was saved. Please try again later.",
    });
  });
});
