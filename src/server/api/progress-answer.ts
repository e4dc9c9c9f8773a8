import type { APIContext } from 'astro';
import { failureOf, json } from './respond.ts';
import type { ProgressLine } from '../../shared/api-types.ts';

/** How a long job tells its progress: `done` of `total` steps. */
export type OnProgress = (done: number, total: number) => void;

/** Progress lines at most this often: a reader of the bar sees no difference, the stream stays small. */
const PROGRESS_EVERY_MS = 200;

export const wantsProgress = (request: Request) => /application\/x-ndjson/.test(request.headers.get('accept') ?? '');

/**
 * Answers a long job (an import of thousands of articles) with its progress while it runs. Until
 * its first step the job may still be refused with its own status (a file that does not parse: 422),
 * and a job done before any step answers plain JSON; from the first step on the answer is a 200
 * stream of progress lines ending in the job's answer, or in its failure with the status it
 * would have had.
 */
export async function answerWithProgress(
  context: Pick<APIContext, 'request' | 'url'>,
  job: (onProgress: OnProgress) => Promise<unknown>,
): Promise<Response> {
  let send: ((line: ProgressLine) => void) | null = null;
  let firstStep: ((step: { done: number; total: number }) => void) | null = null;
  const started = new Promise<{ done: number; total: number }>((resolve) => (firstStep = resolve));
  let sentAt = 0;
  const running = job((done, total) => {
    if (!send) return firstStep?.({ done, total });
    const now = performance.now();
    if (now - sentAt < PROGRESS_EVERY_MS && done < total) return;
    sentAt = now;
    send({ progress: { done, total } });
  });
  const first = await Promise.race([
    running.then(
      () => null,
      () => null,
    ),
    started,
  ]);
  // Done (or refused) before its first step: the ordinary answer, or the error to the route.
  if (!first) return json(await running);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      send = (line) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      send({ progress: first });
      running
        .then(
          (answer) => send!({ answer }),
          (error: unknown) => send!({ failed: failureOf(error, context) }),
        )
        .finally(() => controller.close());
    },
  });
  // No buffering on the way: a proxy that holds the lines back shows no progress.
  return new Response(body, {
    headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
  });
}
