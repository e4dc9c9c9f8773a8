import { STATUS_CODES, type ServerResponse } from 'node:http';

/**
 * Astro copies a page's statusText into the status line, and a page that only sets
 * `Astro.response.status = 404` keeps the default "OK": the reader's browser and every log would
 * see "404 OK". A non-200 answer that still says "OK" gets its code's own text ("Not Found").
 */
export function correctStatusText(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
    const said = typeof rest[0] === 'string' ? rest[0] : res.statusMessage;
    if (statusCode !== 200 && said === 'OK') {
      const text = STATUS_CODES[statusCode] ?? 'Unknown';
      res.statusMessage = text;
      if (typeof rest[0] === 'string') rest[0] = text;
    }
    return writeHead(statusCode, ...rest);
  }) as ServerResponse['writeHead'];
}
