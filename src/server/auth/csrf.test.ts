import { describe, expect, it } from 'vitest';
import { isSameOriginRequest, isUnsafeMethod } from './csrf.ts';

const base = { method: 'POST', origin: null, secFetchSite: null, publicOrigin: 'https://site.example' };

describe('isSameOriginRequest', () => {
  it('lets every safe method through whatever the headers say', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) {
      expect(isSameOriginRequest({ ...base, method, origin: 'https://evil.example', secFetchSite: 'cross-site' })).toBe(true);
    }
  });

  it('treats POST, PUT, PATCH and DELETE as unsafe', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'delete']) expect(isUnsafeMethod(method)).toBe(true);
  });

  it('accepts Sec-Fetch-Site: same-origin', () => {
    expect(isSameOriginRequest({ ...base, secFetchSite: 'same-origin' })).toBe(true);
    expect(isSameOriginRequest({ ...base, method: 'DELETE', secFetchSite: 'Same-Origin' })).toBe(true);
  });

  it('accepts an Origin equal to the public origin, and no other (not the one the Host header names)', () => {
    expect(isSameOriginRequest({ ...base, origin: 'https://site.example' })).toBe(true);
    expect(isSameOriginRequest({ ...base, method: 'PUT', origin: 'http://127.0.0.1:4321' })).toBe(false);
  });

  it('refuses a foreign, look-alike or opaque Origin, and no Origin at all', () => {
    for (const origin of [
      'https://evil.example',
      'https://site.example.evil.example',
      'http://site.example',
      'https://sub.site.example',
      'null',
      null,
    ]) {
      expect(isSameOriginRequest({ ...base, origin }), String(origin)).toBe(false);
    }
  });

  it('believes a browser that says cross-site or same-site over a matching Origin', () => {
    expect(isSameOriginRequest({ ...base, origin: 'https://site.example', secFetchSite: 'cross-site' })).toBe(false);
    expect(isSameOriginRequest({ ...base, origin: 'https://site.example', secFetchSite: 'same-site' })).toBe(false);
  });

  it('falls back to Origin when Sec-Fetch-Site is none or unknown', () => {
    expect(isSameOriginRequest({ ...base, origin: 'https://site.example', secFetchSite: 'none' })).toBe(true);
    expect(isSameOriginRequest({ ...base, origin: 'https://evil.example', secFetchSite: 'none' })).toBe(false);
  });
});
