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

export interface Viewers {
  agent: http.Agent;
  origin: string;
  /** Articles by rank: a view goes to the one at rank r with weight 1/r (Zipf's law). */
  ranked: number[];
  perSecond: number;
}

/**
 * Readers' browsers counting their views (`PUT /api/blogs/:id/click`, sent by every article page
 * a browser opens) at a steady rate while `going()`, each from an address of its own so no
 * per-address limit applies, the most viewed articles taking most views as on a real site: the
 * top-viewed list moves, and every home page (each shows it) is refreshed once a check sees it.
 */
export async function countViews(going: () => boolean, viewers: Viewers, tally: Tally): Promise<void> {
  const { ranked, perSecond } = viewers;
  const weights = ranked.map((_, rank) => 1 / (rank + 1));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const cumulative: number[] = [];
  weights.reduce((sum, weight) => (cumulative.push((sum + weight) / total), sum + weight), 0);
  const draw = () => {
    const target = Math.random();
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return ranked[low]!;
  };
  const started = performance.now();
  const pending = new Set<Promise<void>>();
  for (let n = 0; going(); n++) {
    const wait = started + (n * 1000) / perSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Sent at their pace, not one after another: a slow answer does not slow the views.
    const address = `10.${(n >> 16) % 250}.${(n >> 8) % 250}.${(n % 250) + 1}`;
    const view = send(viewers.agent, viewers.origin, 'PUT', `/api/blogs/${draw()}/click`, { 'x-forwarded-for': address }).then(
      (answer) => count(tally, answer),
      () => count(tally, { status: 0, ms: NaN }),
    );
    pending.add(view);
    void view.finally(() => pending.delete(view));
  }
  await Promise.all(pending);
}
