import { describe, expect, it } from 'vitest';
import { PUBLISH_MESSAGES, parseIsoDateTime, readPublishing } from './publishing.ts';
import type { FieldErrors } from './common.ts';

const NOW = Date.parse('2030-01-01T00:00:00Z');

function read(input: { status?: unknown; publish_at?: unknown }) {
  const errors: FieldErrors = {};
  const values = readPublishing(input, errors, NOW);
  return { values, errors };
}

describe('readPublishing', () => {
  it('defaults to published, so a body without status means what it always meant', () => {
    expect(read({})).toEqual({ values: { status: 'published', publish_at: null }, errors: {} });
    expect(read({ status: '', publish_at: '2031-01-01T00:00:00Z' }).values).toEqual({ status: 'published', publish_at: null });
  });

  it('keeps a draft without a date', () => {
    expect(read({ status: 'draft', publish_at: 'whatever' })).toEqual({
      values: { status: 'draft', publish_at: null },
      errors: {},
    });
  });

  it('normalises a future schedule to UTC', () => {
    expect(read({ status: 'scheduled', publish_at: '2030-01-01T10:30:00+02:00' })).toEqual({
      values: { status: 'scheduled', publish_at: '2030-01-01T08:30:00.000Z' },
      errors: {},
    });
  });

  it('refuses an unknown status, a missing, malformed or past publish_at', () => {
    expect(read({ status: 'live' }).errors).toEqual({ status: PUBLISH_MESSAGES.status });
    expect(read({ status: 'scheduled' }).errors).toEqual({ publish_at: PUBLISH_MESSAGES.publishAtRequired });
    expect(read({ status: 'scheduled', publish_at: 'tomorrow' }).errors).toEqual({
      publish_at: PUBLISH_MESSAGES.publishAtInvalid,
    });
    expect(read({ status: 'scheduled', publish_at: '2031-01-01' }).errors).toEqual({
      publish_at: PUBLISH_MESSAGES.publishAtInvalid,
    });
    expect(read({ status: 'scheduled', publish_at: 12 }).errors).toEqual({ publish_at: PUBLISH_MESSAGES.publishAtInvalid });
    expect(read({ status: 'scheduled', publish_at: '2029-12-31T23:59:59Z' }).errors).toEqual({
      publish_at: PUBLISH_MESSAGES.publishAtPast,
    });
    expect(read({ status: 'scheduled', publish_at: '2030-01-01T00:00:00Z' }).errors).toEqual({
      publish_at: PUBLISH_MESSAGES.publishAtPast,
    });
  });
});

describe('parseIsoDateTime', () => {
  it('reads dates with a zone only', () => {
    expect(parseIsoDateTime('2030-05-06T07:08:09.5Z')).toBe('2030-05-06T07:08:09.500Z');
    expect(parseIsoDateTime('2030-05-06T07:08')).toBeNull();
    expect(parseIsoDateTime('2030-02-30T07:08:00Z')).toBeNull();
    expect(parseIsoDateTime('2030-13-01T07:08:00Z')).toBeNull();
  });
});
