import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_POLICY } from './security-headers.ts';

/**
 * Which Host a request may name (DNS rebinding, Host header injection). Accepted:
 * - the host of PUBLIC_ORIGIN (with its port, the scheme's default one may be left out);
 * - the IP address and port the connection itself arrived on (`127.0.0.1:4321` from a proxy that
 *   passes its upstream address, a health check, a local start without PUBLIC_ORIGIN): a browser
 *   only sends an IP literal for a page it loaded from that IP, so no other site can borrow it;
 * - `localhost` with that port when the connection arrived on a loopback address.
 * Anything else gets 421 Misdirected Request before any page, file or route is looked at.
 * `/healthz` is exempt, so a load balancer may probe under any name.
 */
export const HOST_EXEMPT_PATHS = new Set(['/healthz']);

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

export interface HostRules {
  /** `host:port` of PUBLIC_ORIGIN, lower case, port always written. */
  publicHost: string;
  /** The scheme's default port of PUBLIC_ORIGIN, for a Host without one. */
  defaultPort: string;
}

export function readHostRules(publicOrigin: string): HostRules {
  const url = new URL(publicOrigin);
  const defaultPort = DEFAULT_PORTS[url.protocol] ?? '80';
  return { publicHost: `${url.hostname.toLowerCase()}:${url.port || defaultPort}`, defaultPort };
}

/** `name:port` of a Host value (IPv6 kept in brackets), or null when it is not one. */
export function normalizeHost(value: string, defaultPort: string): string | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return null;
  return `${match[1]!.toLowerCase()}:${match[2] ? String(Number(match[2])) : defaultPort}`;
}

function hostOfAddress(address: string): string {
  const plain = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
  return net.isIPv6(plain) ? `[${plain.toLowerCase()}]` : plain;
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

export function isAllowedHost(
  host: string | null,
  rules: HostRules,
  localAddress: string | undefined,
  localPort: number | undefined,
): boolean {
  if (!host) return false;
  if (host === rules.publicHost) return true;
  if (!localAddress || !localPort) return false;
  if (host === `${hostOfAddress(localAddress)}:${localPort}`) return true;
  return isLoopback(localAddress) && host === `localhost:${localPort}`;
}

/**
 * The host a request is addressed to: the authority of an absolute-form target wins over the
 * Host header (RFC 9112 section 3.2.2).
 */
function requestedHost(req: IncomingMessage, defaultPort: string): string | null {
  const absolute = /^https?:\/\/([^/?#]*)/i.exec(req.url ?? '');
  const raw = absolute ? absolute[1]! : req.headers.host;
  return raw ? normalizeHost(raw, defaultPort) : null;
}

function pathOf(url: string | undefined): string {
  const target = (url ?? '/').replace(/^https?:\/\/[^/?#]*/i, '');
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/** Answers 421 and returns true when the request names a host this server does not serve. */
export function refuseMisdirected(req: IncomingMessage, res: ServerResponse, rules: HostRules): boolean {
  if (isAllowedHost(requestedHost(req, rules.defaultPort), rules, req.socket.localAddress, req.socket.localPort)) return false;
  if (HOST_EXEMPT_PATHS.has(pathOf(req.url))) return false;
  res.writeHead(421, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Security-Policy': DEFAULT_POLICY,
    'X-Content-Type-Options': 'nosniff',
  });
  res.end('Misdirected request: this server does not answer for that host name.\n');
  return true;
}
