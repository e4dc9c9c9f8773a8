import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { login, registerUser } from '../support/auth.ts';
import { until } from '../support/wait.ts';

/**
 * Login limits under pressure, against the real built server (security review, round 2):
 * simultaneous attempts cannot overshoot a limit, and one address full of failures slows down
 * newcomers without locking out readers who already log in from it. TRUST_PROXY is on, so each
 * test picks its own client address with X-Forwarded-For.
 */

const ACCOUNT_LIMIT = 4;
// Above the account limit, so the concurrency test meets the account limit alone.
const ADDRESS_FREE = 6;

let server: TestServer;

beforeAll(async () => {
  server = await startServer({
    env: {
      TRUST_PROXY: 'true',
      RATE_LIMIT_LOGIN_ACCOUNT: String(ACCOUNT_LIMIT),
      RATE_LIMIT_LOGIN_IP: String(ADDRESS_FREE),
      RATE_LIMIT_REGISTER_IP: '1000',
    },
  });
});

afterAll(async () => {
  await server?.stop();
});

interface Answer {
  status: number;
  retryAfter: number | null;
}

async function loginFrom(address: string, email: string, password: string): Promise<Answer> {
  const response = await fetch(server.url('/api/users/login'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({ email, password }),
  });
  await response.arrayBuffer();
  const retryAfter = response.headers.get('retry-after');
  return { status: response.status, retryAfter: retryAfter === null ? null : Number(retryAfter) };
}

const tally = (answers: Answer[]) => {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
};

describe('simultaneous login attempts', () => {
  it(`200 wrong passwords at once for one account: exactly ${ACCOUNT_LIMIT} are checked (401), the rest 429`, async () => {
    const user = await registerUser(server);
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => loginFrom('198.51.100.7', user.email, 'not the password')),
    );
    expect(tally(answers)).toEqual({ 401: ACCOUNT_LIMIT, 429: 200 - ACCOUNT_LIMIT });
    // The right password waits too: the guesses used the account's tries up.
    expect((await loginFrom('198.51.100.7', user.email, user.password)).status).toBe(429);
  });
});

describe('one address with many failures', () => {
  it('slows newcomers down for seconds, not an hour, doubling the wait; a reader who logged in from it before gets in', async () => {
    const address = '203.0.113.50';
    const reader = await registerUser(server);
    const newcomer = await registerUser(server);
    expect((await loginFrom(address, reader.email, reader.password)).status).toBe(200);

    // Someone on the same address guesses at accounts that do not exist.
    for (let i = 0; i < ADDRESS_FREE; i++)
      expect((await loginFrom(address, `guess${i}@example.test`, 'not the password')).status).toBe(401);
    const slowed = await loginFrom(address, 'guess-more@example.test', 'not the password');
    expect(slowed.status).toBe(429);
    expect(slowed.retryAfter).toBeGreaterThan(0);
    expect(slowed.retryAfter).toBeLessThanOrEqual(30);

    // The reader who logged in from here before is not held up by the other accounts' failures.
    expect((await loginFrom(address, reader.email, reader.password)).status).toBe(200);
    const session = await login(server, reader.email, reader.password);
    expect(session.token).toBeTruthy();

    // A newcomer waits the short delay, then gets in (refused tries in between cost nothing).
    const waiting = await loginFrom(address, newcomer.email, newcomer.password);
    expect(waiting.status).toBe(429);
    expect(waiting.retryAfter).toBeLessThanOrEqual(30);
    const answer = await until(
      () => loginFrom(address, newcomer.email, newcomer.password),
      (tried) => tried.status !== 429,
      'the short delay to pass',
      undefined,
      1_000,
    );
    expect(answer.status).toBe(200);

    // The next failure goes through, and the wait after it has doubled.
    expect((await loginFrom(address, 'guess-again@example.test', 'not the password')).status).toBe(401);
    const doubled = await loginFrom(address, 'guess-last@example.test', 'not the password');
    expect(doubled.status).toBe(429);
    expect(doubled.retryAfter).toBeGreaterThan(30);
    expect(doubled.retryAfter).toBeLessThanOrEqual(60);

    // Another address is not affected at all.
    expect((await loginFrom('203.0.113.51', 'guess@example.test', 'not the password')).status).toBe(401);
  });
});

describe('with TRUST_PROXY on', () => {
  it('X-Forwarded-For is expected and draws no warning', () => {
    expect(server.output()).not.toMatch(/TRUST_PROXY is off/);
  });
});
