import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { correctStatusText } from './status-text.ts';

let server: http.Server | null = null;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** The status line text a client sees when the handler writes `code` the way Astro does. */
async function statusTextOf(code: number, write: (res: http.ServerResponse) => void): Promise<string> {
  server = http.createServer((_req, res) => {
    correctStatusText(res);
    write(res);
    res.end('body');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`);
  await response.text();
  expect(response.status).toBe(code);
  return response.statusText;
}

describe('correctStatusText', () => {
  it('replaces a copied "OK" on a 404 with "Not Found"', async () => {
    const text = await statusTextOf(404, (res) => {
      res.statusMessage = 'OK';
      res.writeHead(404, { 'content-type': 'text/html' });
    });
    expect(text).toBe('Not Found');
  });

  it('also when "OK" is passed as the reason', async () => {
    expect(await statusTextOf(500, (res) => res.writeHead(500, 'OK', { 'content-type': 'text/plain' }))).toBe(
      'Internal Server Error',
    );
  });

  it('keeps a 200 "OK" and any text a page chose itself', async () => {
    expect(await statusTextOf(200, (res) => res.writeHead(200, { 'content-type': 'text/plain' }))).toBe('OK');
    expect(await statusTextOf(404, (res) => res.writeHead(404, 'Gone Fishing'))).toBe('Gone Fishing');
  });
});
