import type http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// Slow clients are cut off: headers not sent within `headersMs`, or a request (body included)
// not received within `requestMs`, get a 408 and a closed socket. Node has these limits
// (`headersTimeout`, `requestTimeout`), but it counts from the moment the process took the
// connection, so a process that was itself too busy to read for that long (a starved machine, a
// long burst of work) refuses clients whose request sat unread in its socket; closing a socket
// with unread data sends a reset, so such a client even saw ECONNRESET. Here a limit also needs
// as many checks as it has intervals: each check runs in its own turn of the event loop, and a
// turn reads every socket that has data, so a request that had arrived was read by then, and a
// process that fell behind gives its clients the time it took itself.

export interface SlowClientLimits {
  /** From the connection (or the end of the previous answer on it) to the end of the headers. */
  headersMs: number;
  /** From the headers to the end of the request's body. */
  requestMs: number;
  checkEveryMs: number;
}

interface Waiting {
  /** When this wait began: the connection, the previous answer's end, or the headers. */
  since: number;
  /** Checks made since then. */
  checks: number;
  /** The request the socket is on, null while it waits for one. */
  request: IncomingMessage | null;
  answer: ServerResponse | null;
}

const REQUEST_TIMEOUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/** Watches every connection of `server`; replaces Node's own header and request timeouts. */
export function guardSlowClients(server: http.Server, limits: SlowClientLimits): void {
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  const open = new Map<Socket, Waiting>();
  server.on('connection', (socket: Socket) => {
    open.set(socket, { since: Date.now(), checks: 0, request: null, answer: null });
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (request: IncomingMessage, answer: ServerResponse) => {
    const waiting = open.get(request.socket);
    if (!waiting) return;
    waiting.since = Date.now();
    waiting.checks = 0;
    waiting.request = request;
    waiting.answer = answer;
  });
  const headerChecks = Math.ceil(limits.headersMs / limits.checkEveryMs);
  const requestChecks = Math.ceil(limits.requestMs / limits.checkEveryMs);
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [socket, waiting] of open) {
      // An answer sent on a kept-alive socket: it now waits for the next request's headers.
      if (waiting.answer?.writableFinished) {
        waiting.since = now;
        waiting.checks = 0;
        waiting.request = null;
        waiting.answer = null;
      }
      waiting.checks++;
      let allowedMs: number;
      let allowedChecks: number;
      if (waiting.request === null) {
        allowedMs = limits.headersMs;
        allowedChecks = headerChecks;
      } else if (!waiting.request.complete) {
        allowedMs = limits.requestMs;
        allowedChecks = requestChecks;
      } else continue; // being answered: no limit of the client's
      if (waiting.checks < allowedChecks || now - waiting.since < allowedMs) continue;
      open.delete(socket);
      // As Node does: a 408 unless part of an answer already went out, then the socket closed.
      if (socket.writable && !waiting.answer?.headersSent) socket.write(REQUEST_TIMEOUT);
      socket.destroy();
    }
  }, limits.checkEveryMs);
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
