// A render worker thread (render-pool.ts): loads Astro's built server with its own read-only
// database connection and renders the public pages it is sent (with the encodings a background
// job names). It never writes: the serving thread stores what it answers.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { noPageCache, setAppContext } from '../context.ts';
import { openDatabase } from '../db/client.ts';
import { readAtJobStart } from '../db/read-cache.ts';
import { getAstroRender, renderInProcess, storableTags } from './astro-render.ts';
import type { WorkerJob, WorkerMessage } from './render-pool.ts';
import { runsHurried, type PagePatch } from './render-protocol.ts';
import type { SearchPageDecision } from '../ports.ts';
import { harvestChrome, patchChrome } from './chrome-patch.ts';
import { BLOCK_NAMES, harvestBlock, patchBlock, showsBlock, type Block, type BlockName } from './block-patch.ts';
import { renameCategoriesIn, type CategoryRename } from './category-name-patch.ts';
import type { TagLabel } from './store-file.ts';
import { readTagName, tag, tagName } from './site-tags.ts';
import { listCategoriesCached } from '../db/repositories/categories.ts';
import { categoryListOf } from '../../shared/site-map/page-key.ts';
import { createJobRunner } from './worker-jobs.ts';
import { compressToSync, type PageEncoding } from './compress-page.ts';
import { storedStatusOf } from './not-found-page.ts';
import { answerDigestsInThread } from './sync-digest.ts';
import { narrowAnswerPolicy } from './narrow-policy.ts';
import { workerPriority } from './worker-priority.ts';
import { kernelThreadId } from './thread-idle.ts';
import { idleCollection, loadFullCollection } from './idle-collection.ts';

export interface RenderWorkerData {
  /** The built server entry (dist/server/entry.mjs). */
  entry: string;
  /** The origin pages are rendered for (the configured public origin). */
  origin: string;
  config: Config;
  /** Added to the thread's nice value, so readers' requests win the CPU over renders. */
  nice: number;
  /** Test seam (NODE_ENV=test only): while this file exists, a render of the key it names waits. */
  holdFile: string | null;
}

/** What a worker answers for one page, with the encodings its job named when it may be stored. */
export interface WorkerAnswer {
  key: string;
  status: number;
  headers: Record<string, string>;
  setsCookie: boolean;
  /** The page's tags when it may be stored (a 200 with tags and no cookie), else null. */
  tags: string[] | null;
  body: Uint8Array;
  gzip?: Uint8Array | null;
  br?: Uint8Array | null;
  /** The stored page with a new header and footer or top-viewed list, not a render (chrome-patch.ts, block-patch.ts). */
  patched?: boolean;
  /** Patched with a renamed category's new name written in too (category-name-patch.ts). */
  renamed?: boolean;
}

/**
 * SQLite's cache of the database for a render worker, in KiB. A render reads a few rows; the file
 * sits in the kernel's cache, shared by every process. With better-sqlite3's 16 MiB, the workers'
 * caches filled through the pre-render and held 30-70 MB more of the server's memory, at the same
 * pre-render time (10,000 articles, 2 rounds interleaved).
 */
const RENDER_DB_CACHE_KIB = 2048;

/**
 * How long a worker's jobs must have drained before its heap is collected (idle-collection.ts):
 * long enough that the gaps inside a refresh or between a save's pages do not pay for one.
 */
const IDLE_COLLECTION_DELAY_MS = 2000;

const data = workerData as RenderWorkerData;
const port = parentPort!;
answerDigestsInThread();
// Background renders at the worker's nice value; a render someone waits for at 0 where allowed.
const priority = workerPriority(data.nice);
const { db, sqlite } = openDatabase(data.config.databasePath, { readOnly: true, cacheKib: RENDER_DB_CACHE_KIB });
setAppContext({ config: data.config, db, sqlite, pageCache: noPageCache });
await import(pathToFileURL(data.entry).href);
const render = getAstroRender();
if (!render) throw new Error('Astro bundle did not register its renderer (src/fetch.ts)');

async function holdWhileAsked(key: string): Promise<void> {
  const file = data.holdFile;
  if (!file) return;
  const named = () => {
    try {
      return fs.readFileSync(file, 'utf8').trim() === key;
    } catch {
      return false;
    }
  };
  if (!named()) return;
  fs.writeFileSync(`${file}.held`, key);
  while (named()) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function renderPage(key: string, encodings: PageEncoding[] = []): Promise<WorkerAnswer> {
  await holdWhileAsked(key);
  // Jobs run one at a time (worker-jobs.ts): a render reads the database as of its start.
  const rendered = await readAtJobStart(db, () => renderInProcess(render!, data.origin, key));
  // Here, once per render: the serving thread stores the narrowed policy with the page.
  narrowAnswerPolicy(rendered.headers, rendered.body);
  const tags = storableTags(rendered, storedStatusOf(key));
  return withEncodings({ key, ...rendered, tags }, rendered.body, tags ? encodings : []);
}

/**
 * A search page, with what the front server decided: the page searches on this thread's
 * connection (its word list is made at the first search), so no thread of its own is loaded for
 * search pages. Never stored, so no tags and no encodings.
 */
async function renderSearchPage(key: string, decision: SearchPageDecision): Promise<WorkerAnswer> {
  const rendered = await readAtJobStart(db, () => renderInProcess(render!, data.origin, key, { searchPage: decision }));
  narrowAnswerPolicy(rendered.headers, rendered.body);
  // Says which thread rendered the page (config.testSeams: test builds only).
  if (data.config.testSeams.markAnswers) rendered.headers['x-rendered-by'] = 'render-worker';
  return { key, ...rendered, tags: null };
}

/**
 * The headers and footers rendered for one `PagePatch.chrome` (the nav's and the settings'
 * versions), by part and variant: taken from the pages this worker renders for patch jobs.
 */
let chrome: { versions: string; fragments: Map<string, Buffer> } = { versions: '', fragments: new Map() };

/**
 * The blocks (the top-viewed list, the ticker) rendered since the store's count of changes
 * `PagePatch.block`: taken from the first home page this worker renders for a patch job at that
 * count, all from the same page.
 */
let blocks: { since: string; rendered: Map<BlockName, Block> | null } = { since: '', rendered: null };

/**
 * A page only the nav or the home pages' blocks left stale: its stored text with the header and
 * footer (chrome-patch.ts) or the blocks (block-patch.ts) of a page rendered since, about a tenth
 * of a render. Rendered instead when this worker has no such part yet (then its parts are kept
 * for the next pages) or it cannot be patched.
 */
async function patchPage(key: string, patch: PagePatch, encodings: PageEncoding[] = []): Promise<WorkerAnswer> {
  if (patch.chrome !== null && chrome.versions !== patch.chrome) chrome = { versions: patch.chrome, fragments: new Map() };
  if (patch.block !== null && blocks.since !== patch.block) blocks = { since: patch.block, rendered: null };
  const copy = Buffer.from(patch.copy.buffer, patch.copy.byteOffset, patch.copy.byteLength);
  const stored = patch.encoding === 'br' ? zlib.brotliDecompressSync(copy) : copy;
  const patched = await patchedCopy(key, stored, patch);
  if (!patched) {
    const answer = await renderPage(key, encodings);
    const rendered = Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
    const storable = answer.tags !== null && answer.status === 200;
    const parts = storable && patch.chrome !== null ? harvestChrome(rendered) : null;
    if (parts && chrome.versions === patch.chrome) for (const [name, fragment] of parts) chrome.fragments.set(name, fragment);
    if (storable && patch.block !== null && blocks.since === patch.block) blocks.rendered ??= harvestBlocks(rendered);
    return answer;
  }
  const headers: Record<string, string> = { 'content-type': patch.contentType };
  // The same inline code as before (patchChrome and patchBlock check), so the same narrowed policy.
  if (patch.policy) headers['content-security-policy'] = patch.policy;
  const answer: WorkerAnswer = {
    key,
    status: 200,
    headers,
    setsCookie: false,
    tags: patched.tags,
    body: patched.html,
    patched: true,
    renamed: patched.renamed,
  };
  return withEncodings(answer, patched.html, encodings);
}

/**
 * The stored page with its stale parts patched, and the tags it carries then: a list that shows
 * an article the old one did not adds that article's tag (the old one's stay: one refresh too
 * many at worst, never one too few). Null when a part is not at hand or cannot be patched.
 */
async function patchedCopy(
  key: string,
  stored: Buffer,
  patch: PagePatch,
): Promise<{ html: Buffer; tags: string[]; renamed: boolean } | null> {
  let html: Buffer | null = stored;
  let renamed = false;
  if (patch.chrome !== null) {
    html = patchChrome(html, chrome.fragments);
    const renames = html === null ? null : await categoryRenames(patch.labels);
    if (html === null || renames === null) return null;
    if (renames.length > 0) html = renameCategoriesIn(html, renames, categoryListOf(key));
    renamed = renames.length > 0;
  }
  let tags = patch.tags;
  if (html !== null && patch.block !== null) {
    const shown = new Set(tags);
    for (const name of BLOCK_NAMES) {
      if (html === null || !showsBlock(html, name)) continue;
      const block = blocks.rendered?.get(name);
      html = block ? patchBlock(html, name, block) : null;
      for (const id of block?.ids ?? []) shown.add(tagName(tag.inBlock(id)));
    }
    tags = [...shown];
  }
  return html === null ? null : { html, tags, renamed };
}

/** Every block of a freshly rendered page; null when it shows none. */
function harvestBlocks(rendered: Buffer): Map<BlockName, Block> | null {
  const found = new Map<BlockName, Block>();
  for (const name of BLOCK_NAMES) {
    const block = harvestBlock(rendered, name);
    if (block) found.set(name, block);
  }
  return found.size > 0 ? found : null;
}

/**
 * The categories a patch renames, each from the name the stored page shows to the one it has now
 * (read as a render would read it); null when one no longer exists or a label is not a category's
 * name (the page is rendered).
 */
async function categoryRenames(labels: readonly TagLabel[]): Promise<CategoryRename[] | null> {
  const renames: CategoryRename[] = [];
  // The renders' read, kept while the database is unchanged: a query per patched page otherwise.
  const categories = labels.length > 0 ? await listCategoriesCached(db) : [];
  for (const [name, from] of labels) {
    const pageTag = readTagName(name);
    const category = pageTag?.kind === 'category-name' ? categories.find(({ id }) => id === pageTag.id) : undefined;
    if (!category) return null;
    renames.push({ id: category.id, from, to: category.name });
  }
  return renames;
}

/** The answer with `body` compressed to each of these encodings. */
function withEncodings(answer: WorkerAnswer, body: Buffer, encodings: PageEncoding[]): WorkerAnswer {
  for (const encoding of encodings) answer[encoding] = compressToSync(encoding, body);
  return answer;
}

/**
 * The body and its encodings as views on one new buffer, handed over (not copied) with the
 * message: zlib's outputs are slices of larger chunks, which a message would otherwise clone
 * whole, and one transfer per page costs less than three.
 */
function packed(answer: WorkerAnswer): { answer: WorkerAnswer; transfer: ArrayBuffer[] } {
  const parts = [answer.body, answer.gzip ?? null, answer.br ?? null];
  const memory = new ArrayBuffer(parts.reduce((sum, part) => sum + (part?.byteLength ?? 0), 0));
  let offset = 0;
  const [body, gzip, br] = parts.map((part) => {
    if (!part) return null;
    const view = new Uint8Array(memory, offset, part.byteLength);
    view.set(part);
    offset += part.byteLength;
    return view;
  });
  return { answer: { ...answer, body: body!, gzip, br }, transfer: [memory] };
}

/** A stored page's body compressed to the encodings its job names (readers asked for them). */
function compressBody(key: string, body: Uint8Array, encodings: PageEncoding[] = []): WorkerAnswer {
  const answer: WorkerAnswer = { key, status: 200, headers: {}, setsCookie: false, tags: null, body: new Uint8Array(0) };
  return withEncodings(answer, Buffer.from(body.buffer, body.byteOffset, body.byteLength), encodings);
}

const renderJob = (job: WorkerJob) =>
  priority.run(runsHurried(job.priority, job) ? 'now' : 'background', async () =>
    job.searchPage
      ? renderSearchPage(job.key, job.searchPage)
      : job.body
        ? compressBody(job.key, job.body, job.encodings)
        : job.patch
          ? patchPage(job.key, job.patch, job.encodings)
          : renderPage(job.key, job.encodings),
  );

/** A page someone waits for, then a search page (it must not hold up a save's), then the background. */
const laneOf = (job: WorkerJob) => (job.searchPage ? 1 : job.priority === 'background' ? 2 : 0);

const fullCollection = loadFullCollection();
const collection = fullCollection ? idleCollection(fullCollection, IDLE_COLLECTION_DELAY_MS) : null;
// Loading the built server left garbage of its own: collected too if no job comes first.
collection?.busy();

const submit = createJobRunner<WorkerJob>(
  (job) =>
    renderJob(job).then(
      (rendered) => {
        const { answer, transfer } = packed(rendered);
        port.postMessage({ id: job.id, answer } satisfies WorkerMessage<WorkerAnswer>, transfer);
      },
      (error: unknown) => port.postMessage({ id: job.id, error: String(error) } satisfies WorkerMessage<WorkerAnswer>),
    ),
  laneOf,
  () => collection?.idle(),
);
port.on('message', (job: WorkerJob) => {
  collection?.busy();
  submit(job);
});
port.postMessage({
  ready: true,
  tid: kernelThreadId() ?? undefined,
  nice: priority.hurryNice === null ? undefined : { rest: data.nice, hurry: priority.hurryNice },
} satisfies WorkerMessage<WorkerAnswer>);
collection?.idle();
