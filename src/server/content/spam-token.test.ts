import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { issueFormToken, judgeFormToken } from './spam-token.ts';
import { openMigratedDatabase } from '../../../tests/support/db.ts';

let db: Db;
let close: () => void;

beforeEach(async () => {
  const opened = await openMigratedDatabase();
  db = opened.db;
  close = () => opened.sqlite.close();
});

afterEach(() => close());

const formWindow = { minSeconds: 3, maxSeconds: 24 * 3600 };

describe('the comment form token', () => {
  it('is too fast before the minimum time and fine after it', async () => {
    const token = await issueFormToken(db, 1_700_000_000_000);
    expect(await judgeFormToken(db, token, formWindow, 1_700_000_001_000)).toBe('too_fast');
    expect(await judgeFormToken(db, token, formWindow, 1_700_000_003_000)).toBe('ok');
  });

  it('expires after the longest time a form may stay open (a harvested token is not good for ever)', async () => {
    const token = await issueFormToken(db, 1_700_000_000_000);
    expect(await judgeFormToken(db, token, formWindow, 1_700_000_000_000 + 24 * 3600_000)).toBe('ok');
    expect(await judgeFormToken(db, token, formWindow, 1_700_000_000_000 + 24 * 3600_000 + 1)).toBe('expired');
  });

  it('says nothing when absent and refuses a forged or altered one', async () => {
    expect(await judgeFormToken(db, undefined, formWindow)).toBe('absent');
    expect(await judgeFormToken(db, '', formWindow)).toBe('absent');
    const token = await issueFormToken(db, 1_700_000_000_000);
    const altered = token.replace(/^1700000000000/, '1600000000000');
    expect(await judgeFormToken(db, altered, formWindow, 1_700_000_010_000)).toBe('invalid');
    expect(await judgeFormToken(db, 'nonsense', formWindow)).toBe('invalid');
    expect(await judgeFormToken(db, 42, formWindow)).toBe('invalid');
  });

  it('refuses a token from another installation (another key)', async () => {
    const other = await openMigratedDatabase();
    try {
      const foreign = await issueFormToken(other.db, 1_700_000_000_000);
      expect(await judgeFormToken(db, foreign, formWindow, 1_700_000_010_000)).toBe('invalid');
    } finally {
      other.sqlite.close();
    }
  });
});
