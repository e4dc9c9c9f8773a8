// The tests' `fetch` sends a GET or HEAD once more when its kept-alive connection was reset as the
// request went out (installed before every integration file by fetch-retry-setup.ts).
//
// A server closes a connection it kept alive once the connection has sat idle for its keep-alive
// time. On a machine starved of CPU (the suite beside eight busy loops) a serving thread can stall
// for longer than that right after an answer: its timer then fires before it reads the request
// the client had already sent on that connection, and the client sees ECONNRESET. Browsers and
// proxies send such a request again on a new connection; so does this, once, and only for
// requests that change nothing. Anything else fails as before.

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Whether `error` is fetch's failure for a connection the other side reset or closed. */
export function isConnectionReset(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && RESET_CODES.has(code);
}

/** `send`, trying a GET or HEAD a second time after a reset connection. */
export function retryingResets(send: typeof fetch): typeof fetch {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    try {
      return await send(input, init);
    } catch (error) {
      if ((method !== 'GET' && method !== 'HEAD') || !isConnectionReset(error)) throw error;
      return send(input, init);
    }
  };
}
