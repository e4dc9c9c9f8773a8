// What runs beside the random readers in the later phases of `npm run bench:wrk`: an admin saving
// article titles one after another, and eight searchers, each from an address of its own.
import http from 'node:http';
import { type Json } from '../tests/support/builders.ts';

/** Requests sent during a phase: how many, how long each took, how many of each status. */
export interface Tally {
  times: number[];
  statuses: Map<number, number>;
}

export const newTally = (): Tally => ({ times: [], statuses: new Map() });

/** One keep-alive GET or PUT with a JSON body; status and time taken. */
function send(
  agent: http.Agent,
  origin: string,
  method: string,
  urlPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; ms: number }> {
  const target = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: target.hostname, port: target.port, method, path: urlPath, headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('no answer in 30 s')));
    request.on('error', reject);
    request.end(body);
  });
}

function count(tally: Tally, answer: { status: number; ms: number }): void {
  tally.times.push(answer.ms);
  tally.statuses.set(answer.status, (tally.statuses.get(answer.status) ?? 0) + 1);
}

export interface Writer {
  agent: http.Agent;
  origin: string;
  token: string;
  /** Each edited article's body as the admin's form would send it. */
  bodies: Map<number, Json>;
  editIds: number[];
}

/** Saves a new title on the articles in turn while `going()`. */
export async function saveTitles(going: () => boolean, writer: Writer, tally: Tally): Promise<void> {
  for (let edit = 0; going(); edit++) {
    const id = writer.editIds[edit % writer.editIds.length]!;
    const body = { ...writer.bodies.get(id)!, title: `Edited title ${edit} of ${id}` };
    const answer = await send(
      writer.agent,
      writer.origin,
      'PUT',
      `/api/blogs/${id}`,
      { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
      JSON.stringify(body),
    );
    count(tally, answer);
  }
}

const WORDS = ['study', 'notes', 'exam method', 'theory', 'summary', 'revison', 'formula', 'practice', 'chapter', 'lesson'];

/** Eight connections searching, each from its own address, while `going()`. */
export async function searchFromAddresses(going: () => boolean, agent: http.Agent, origin: string, tally: Tally): Promise<void> {
  await Promise.all(
    Array.from({ length: 8 }, async (_, i) => {
      for (let n = 0; going(); n++) {
        const text = WORDS[(i + n) % WORDS.length]!;
        const answer = await send(agent, origin, 'GET', `/blogs?search=${encodeURIComponent(text)}&page=${1 + (n % 5)}`, {
          'x-forwarded-for': `198.51.100.${i + 1}`,
          'accept-encoding': 'br',
        });
        count(tally, answer);
      }
    }),
  );
}
