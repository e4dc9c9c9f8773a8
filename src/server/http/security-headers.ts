import type { ServerResponse } from 'node:http';

/** Headers every response carries; pages add their own CSP (see src/layouts). */
export function setSecurityHeaders(res: ServerResponse, tls: boolean): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  if (tls) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

/** Uploaded files are data, never documents that run: sandboxed, no scripts, no sniffing. */
export const UPLOAD_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";
