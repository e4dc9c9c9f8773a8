import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { cleanText, COMMENT_LIMITS, validateCommentInput } from './validation-public.ts';

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('validateCommentInput (SPEC.md section 5)', () => {
  it('accepts a name, a comment and a contact, trimmed', () => {
    expect(validateCommentInput({ username: '  Asha ', comment: ' Thanks!\n', contact: ' asha@example.org ' })).toEqual({
      username: 'Asha',
      comment: 'Thanks!',
      contact: 'asha@example.org',
    });
  });

  it('treats the contact as optional', () => {
    expect(validateCommentInput({ username: 'A', comment: 'B' }).contact).toBeNull();
    expect(validateCommentInput({ username: 'A', comment: 'B', contact: null }).contact).toBeNull();
    expect(validateCommentInput({ username: 'A', comment: 'B', contact: '   ' }).contact).toBeNull();
  });

  it.each([
    [{}, ['username', 'comment']],
    [{ username: '', comment: '' }, ['username', 'comment']],
    [{ username: '   ', comment: 'ok' }, ['username']],
    [{ username: 'ok', comment: '\n\t \n' }, ['comment']],
    [{ username: '\u0000\u0007', comment: 'ok' }, ['username']],
    [{ username: 5, comment: 'ok' }, ['username']],
    [{ username: 'ok', comment: ['a'] }, ['comment']],
    [{ username: 'ok', comment: { text: 'a' } }, ['comment']],
    [{ username: 'ok', comment: 'ok', contact: 42 }, ['contact']],
    [{ username: true, comment: null }, ['username', 'comment']],
  ])('refuses %j with 400 naming the fields', (body, fields) => {
    const error = errorOf(() => validateCommentInput(body as Record<string, unknown>));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_input');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual([...fields].sort());
  });

  it('enforces the length limits in characters, emoji counting as one', () => {
    const ok = validateCommentInput({
      username: 'u'.repeat(COMMENT_LIMITS.username),
      comment: '😀'.repeat(COMMENT_LIMITS.comment),
      contact: 'c'.repeat(COMMENT_LIMITS.contact),
    });
    expect([...ok.comment]).toHaveLength(5000);
    const error = errorOf(() =>
      validateCommentInput({
        username: 'u'.repeat(61),
        comment: 'c'.repeat(5001),
        contact: 'x'.repeat(201),
      }),
    );
    expect(error.fields).toEqual({
      username: 'Name must be at most 60 characters.',
      comment: 'Comment must be at most 5000 characters.',
      contact: 'Contact must be at most 200 characters.',
    });
  });

  it('measures the length after trimming', () => {
    expect(validateCommentInput({ username: ` ${'u'.repeat(60)} `, comment: 'c' }).username).toHaveLength(60);
  });

  it('keeps HTML as plain text for the output side to escape', () => {
    expect(validateCommentInput({ username: '<b>A</b>', comment: '<script>alert(1)</script>' })).toMatchObject({
      username: '<b>A</b>',
      comment: '<script>alert(1)</script>',
    });
  });

  it('strips control characters and NUL but keeps the comment on several lines', () => {
    const input = validateCommentInput({
      username: 'A\u0000s\u001bha\nK',
      comment: 'line 1\r\nline\u0000 2\u0007\rline 3\u007f\u0085',
    });
    expect(input.username).toBe('Asha K');
    expect(input.comment).toBe('line 1\nline 2\nline 3');
  });
});

describe('cleanText', () => {
  it('removes bidirectional overrides that disguise text', () => {
    expect(cleanText('abc\u202Efed\u202C', { multiline: false })).toBe('abcfed');
  });

  it('joins a single-line value onto one line', () => {
    expect(cleanText('a\n\n b\tc', { multiline: false })).toBe('a b c');
    expect(cleanText('a\n\n b\tc', { multiline: true })).toBe('a\n\n b\tc');
  });

  it('keeps letters of every script and emoji', () => {
    expect(cleanText(' 東京 हिन्दी café 👩‍👩‍👧 ', { multiline: false })).toBe('東京 हिन्दी café 👩‍👩‍👧');
  });
});
