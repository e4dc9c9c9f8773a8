import { describe, expect, it } from 'vitest';
import { normalizeTypedHref, toSafeHref } from './safe-href.ts';

describe('toSafeHref', () => {
  it.each([
    'https://example.org/a?b=c#d',
    'http://example.org',
    'mailto:office@example.org',
    'tel:+44 1234 567',
    'HTTPS://EXAMPLE.ORG',
  ])('keeps %s', (href) => {
    expect(toSafeHref(href)).toBe(href);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    ' \u0000javascript:alert(1)',
    'java\u200bscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'ftp://files.example.org/a',
    'file:///etc/passwd',
  ])('blanks %j', (href) => {
    expect(toSafeHref(href)).toBe('');
  });

  it('keeps same-site paths and fragments but not protocol-relative or bare hosts', () => {
    expect(toSafeHref('/blog/3')).toBe('/blog/3');
    expect(toSafeHref('#part-2')).toBe('#part-2');
    expect(toSafeHref('//evil.example')).toBe('');
    expect(toSafeHref('/\\evil.example')).toBe('');
    expect(toSafeHref('example.org')).toBe('');
  });

  it('trims, and blanks what is not a string', () => {
    expect(toSafeHref('  https://example.org  ')).toBe('https://example.org');
    expect(toSafeHref('')).toBe('');
    expect(toSafeHref(null)).toBe('');
    expect(toSafeHref(42)).toBe('');
  });
});

describe('normalizeTypedHref', () => {
  it('adds https to a bare host and mailto to an e-mail address', () => {
    expect(normalizeTypedHref('example.org/contact')).toBe('https://example.org/contact');
    expect(normalizeTypedHref('www.example.org')).toBe('https://www.example.org');
    expect(normalizeTypedHref('office@example.org')).toBe('mailto:office@example.org');
  });

  it('still refuses other protocols', () => {
    expect(normalizeTypedHref('javascript:alert(1)')).toBe('');
    expect(normalizeTypedHref('ftp://example.org')).toBe('');
    expect(normalizeTypedHref('https://example.org')).toBe('https://example.org');
  });
});
