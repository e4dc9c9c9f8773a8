import { describe, expect, it } from 'vitest';
import { cleanText, COMMENT_LIMITS, validateCommentInput, type CommentFormInput } from './comment.ts';

/** The values of an input the tests expect to be valid. */
function valid(input: CommentFormInput) {
  const result = validateCommentInput(input);
  expect(result.errors).toEqual({});
  return result.values;
}

describe('validateCommentInput (docs/product.md#validation-rules)', () => {
  it('accepts a name, a comment and a contact, trimmed', () => {
    expect(valid({ username: '  Asha ', comment: ' Thanks!\n', contact: ' asha@example.org ' })).toEqual({
      username: 'Asha',
      comment: 'Thanks!',
      contact: 'asha@example.org',
    });
  });

  it('treats the contact as optional', () => {
    expect(valid({ username: 'A', comment: 'B' }).contact).toBeNull();
    expect(valid({ username: 'A', comment: 'B', contact: null }).contact).toBeNull();
    expect(valid({ username: 'A', comment: 'B', contact: '   ' }).contact).toBeNull();
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
  ])('refuses %j naming the fields', (body, fields) => {
    const { errors } = validateCommentInput(body as CommentFormInput);
    expect(Object.keys(errors).sort()).toEqual([...fields].sort());
  });

  it('enforces the length limits in characters, emoji counting as one', () => {
    const ok = valid({
      username: 'u'.repeat(COMMENT_LIMITS.username),
      comment: '😀'.repeat(COMMENT_LIMITS.comment),
      contact: 'c'.repeat(COMMENT_LIMITS.contact),
    });
    expect([...ok.comment]).toHaveLength(5000);
    const { errors } = validateCommentInput({
      username: 'u'.repeat(61),
      comment: 'c'.repeat(5001),
      contact: 'x'.repeat(201),
    });
    expect(errors).toEqual({
      username: 'Name must be at most 60 characters.',
      comment: 'Comment must be at most 5000 characters.',
      contact: 'Contact must be at most 200 characters.',
    });
  });

  it('measures the length after trimming', () => {
    expect(valid({ username: ` ${'u'.repeat(60)} `, comment: 'c' }).username).toHaveLength(60);
  });

  it('keeps HTML as plain text for the output side to escape', () => {
    expect(valid({ username: '<b>A</b>', comment: '<script>alert(1)</script>' })).toMatchObject({
      username: '<b>A</b>',
      comment: '<script>alert(1)</script>',
    });
  });

  it('strips control characters and NUL but keeps the comment on several lines', () => {
    const input = valid({ username: 'A\u0000s\u001bha\nK', comment: 'line 1\r\nline\u0000 2\u0007\rline 3\u007f\u0085' });
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
