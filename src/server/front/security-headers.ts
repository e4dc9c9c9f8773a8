import type { ServerResponse } from 'node:http';
import { getAstroRender, renderInProcess } from '../page-store/astro-render.ts';
import { isHtmlType } from '../page-store/narrow-policy.ts';

/**
 * The policy of every answer that is not a page (JSON, assets, plain-text errors): nothing may
 * load, run or frame it. Pages replace it with the build's page policy (astro.config.mjs).
 */
export const DEFAULT_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The service worker's own policy: it fetches and keeps this site's pages and files (connect-src
 * through 'self'); nothing from elsewhere.
 */
export const SERVICE_WORKER_POLICY = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Uploaded files are data, never documents that run: sandboxed, no scripts, no sniffing. */
export const UPLOAD_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

/** Headers every response carries, as a flat name, value, ... list; HTML pages then get the page policy instead of DEFAULT_POLICY. */
export function securityHeaderList(tls: boolean): string[] {
  const list = [
    'Content-Security-Policy',
    DEFAULT_POLICY,
    'X-Content-Type-Options',
    'nosniff',
    'Referrer-Policy',
    'strict-origin-when-cross-origin',
    'X-Frame-Options',
    'DENY',
    'Cross-Origin-Opener-Policy',
    'same-origin',
    'Permissions-Policy',
    'camera=(), microphone=(), geolocation=(), payment=()',
  ];
  if (tls) list.push('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  return list;
}

export function setSecurityHeaders(res: ServerResponse, list: string[]): void {
  for (let i = 0; i < list.length; i += 2) res.setHeader(list[i]!, list[i + 1]!);
}

export const isHtml = isHtmlType;

/** A path no route claims: Astro answers it with the site's 404 page, policy header included. */
const PROBE_PATH = '/__page-policy-probe';

/**
 * The Content-Security-Policy Astro sends with the pages of this build. Astro hashes every script
 * and style it inlines across the whole build, so the header is the same for every page; each
 * HTML answer then carries it narrowed to the hashes of its own inline scripts and styles
 * (page-policy.ts), whether it comes from the page store or from Astro. Read once at start from
 * one in-process render.
 */
export async function readPagePolicy(origin: string): Promise<string> {
  const render = getAstroRender();
  if (!render) throw new Error('Astro is not loaded: cannot read the page Content-Security-Policy.');
  const probe = await renderInProcess(render, origin, PROBE_PATH);
  const policy = probe.headers['content-security-policy'];
  if (!policy || !/script-src /.test(policy)) {
    throw new Error('The built pages carry no Content-Security-Policy: enable security.csp in astro.config.mjs.');
  }
  return policy;
}
