import type { Config } from '../config.ts';
import { RenderPool } from './render-pool.ts';
import type { RenderWorkerData, WorkerAnswer } from './render-worker.ts';
import { siblingModuleUrl } from '../module-file.ts';
import { loadThreadIdler } from './thread-idle.ts';

/** Background renders yield the CPU to the serving thread: a nice value of 10 weighs a tenth of one at 0 (worker-priority.ts). */
export const RENDER_NICE = 10;

/**
 * A render's garbage dies young; V8's default young generation (up to 48 MiB a thread) mostly
 * adds resident memory. With 12 MiB here and a small one on the serving threads, a serving
 * process measured about 265 MB instead of 310 during the pre-render, at the same pages/s within
 * the noise of the machine.
 */
const RENDER_YOUNG_MB = 12;

/**
 * Patch jobs handed to one worker at a time (renders: two). A patch (chrome-patch.ts) takes a
 * fraction of a millisecond, less than the serving thread may take to read the worker's answer
 * between readers' requests: with two a worker, the refresh after a rename left the workers idle
 * most of the time (107 s against 74 s to drain at 10,000 articles). Renders stay at two: with
 * six, saves beside random readers answered later (p95 116-148 ms against 73-99, 3 rounds
 * interleaved), the background taking more of the CPU between them.
 */
export const PATCHES_PER_WORKER = 6;

/**
 * The server's render pool: RENDER_WORKERS threads of render-worker.ts on the built Astro entry,
 * each with RENDER_WORKER_MEMORY_MB of heap. In a test build `config.testSeams.renderHoldFile` names
 * a file that holds back the render of the key written in it (to show readers are served meanwhile).
 */
export function startRenderPool(config: Config, entry: string): RenderPool<WorkerAnswer> {
  const holdFile = config.testSeams.renderHoldFile;
  // Workers never purge, and URL objects cannot be copied to a thread: they get no purge targets.
  const workerConfig: Config = { ...config, cdn: { ...config.cdn, purgeVarnish: [] } };
  const workerData: RenderWorkerData = { entry, origin: config.publicOrigin, config: workerConfig, nice: RENDER_NICE, holdFile };
  return new RenderPool<WorkerAnswer>({
    size: config.renderWorkers,
    workerUrl: siblingModuleUrl(import.meta.url, './render-worker'),
    workerData,
    memoryMb: config.renderWorkerMemoryMb,
    youngMb: RENDER_YOUNG_MB,
    patchesPerWorker: PATCHES_PER_WORKER,
    // The background refresh in the machine's idle time while it keeps its pace (refresh-pace.ts).
    idleThreads: loadThreadIdler(config.distDir),
    restAfterMs: config.renderWorkersRestSeconds * 1000,
  });
}
