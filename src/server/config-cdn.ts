import { ConfigError } from './config-error.ts';
import { readInt } from './config-read.ts';

/** The headers a shared cache reads a page's tags from (CDN_TAG_HEADERS). */
export const CDN_TAG_HEADER_NAMES = ['xkey', 'Surrogate-Key', 'Cache-Tag'] as const;
export type CdnTagHeader = (typeof CDN_TAG_HEADER_NAMES)[number];

export interface CdnSettings {
  /** Which tag headers public pages carry; empty when no shared cache is configured. */
  tagHeaders: CdnTagHeader[];
  /** Base URLs of the Varnish servers to purge (PURGE_VARNISH). */
  purgeVarnish: URL[];
  /** How long a shared cache may keep a page (CDN_MAX_AGE_SECONDS): purges make it fresh sooner. */
  maxAgeSeconds: number;
  /**
   * Sent with every purge (PURGE_SECRET; required with PURGE_VARNISH): the VCL honours a purge only
   * from its acl and with this value, so a reader behind a proxy on the same host cannot purge.
   */
  purgeSecret: string | null;
  /**
   * The longest a save or a comment waits for the caches to confirm its purge (PURGE_WAIT_MS); a
   * purge not confirmed by then is pending, retried in the background and shown to the admin.
   */
  purgeWaitMs: number;
}

/** CDN_TAG_HEADERS: a comma list of xkey, Surrogate-Key, Cache-Tag (any case); PURGE_VARNISH alone implies xkey. */
export function readCdn(env: NodeJS.ProcessEnv): CdnSettings {
  const purgeVarnish = (env.PURGE_VARNISH ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((raw) => {
      try {
        const url = new URL(raw);
        if (url.protocol !== 'http:') throw new Error('protocol');
        return url;
      } catch {
        throw new ConfigError(`PURGE_VARNISH must be http:// base URLs separated by commas, got "${raw}"`);
      }
    });
  const names = (env.CDN_TAG_HEADERS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const tagHeaders: CdnTagHeader[] = [];
  for (const name of names) {
    const known = CDN_TAG_HEADER_NAMES.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (!known) throw new ConfigError(`CDN_TAG_HEADERS may name ${CDN_TAG_HEADER_NAMES.join(', ')}; got "${name}"`);
    if (!tagHeaders.includes(known)) tagHeaders.push(known);
  }
  if (purgeVarnish.length > 0 && !tagHeaders.includes('xkey')) {
    if (names.length > 0) throw new ConfigError('PURGE_VARNISH purges by the xkey header: add xkey to CDN_TAG_HEADERS');
    tagHeaders.push('xkey');
  }
  return {
    tagHeaders,
    purgeVarnish,
    maxAgeSeconds: readInt(env, 'CDN_MAX_AGE_SECONDS', 86400, 1, 31536000),
    purgeSecret: readPurgeSecret(env, purgeVarnish.length > 0),
    purgeWaitMs: readInt(env, 'PURGE_WAIT_MS', 250, 0, 10_000),
  };
}

/**
 * PURGE_SECRET: the VCL compares it as a plain string in a header, so it must be long enough not
 * to be guessed and made of characters a header and a VCL string carry unchanged (hex, base64).
 */
function readPurgeSecret(env: NodeJS.ProcessEnv, purging: boolean): string | null {
  const raw = env.PURGE_SECRET ?? '';
  if (raw === '') {
    if (purging)
      throw new ConfigError('PURGE_VARNISH needs PURGE_SECRET, the value written in site-backends.vcl (openssl rand -hex 32)');
    return null;
  }
  if (!/^[A-Za-z0-9+/=._~-]{32,256}$/.test(raw))
    throw new ConfigError('PURGE_SECRET must be 32 to 256 letters, digits or + / = . _ ~ - (openssl rand -hex 32)');
  return raw;
}
