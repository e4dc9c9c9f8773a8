import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.ts';
import { trackTempDirs } from '../support/temp-dirs.ts';
import { STUDY_BLOCKS } from '../../db/seed/demo-study-blocks.ts';

/**
 * Every kind of public page passes the W3C Nu HTML checker (vnu-jar, run on the system's Java) with
 * no error: home, lists, a category, search, articles with and without a video or PDF, downloads,
 * the info pages, sign-in screens and the 404 page, as the real server answers them; and the demo
 * articles with formulas (MathML), code, tables, callouts and footnotes.
 */

const require = createRequire(import.meta.url);
const VNU_JAR = path.join(path.dirname(require.resolve('vnu-jar/package.json')), 'build/dist/vnu.jar');
const tempDir = trackTempDirs('html-validity-');

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

interface VnuMessage {
  type: string;
  subType?: string;
  url: string;
  message: string;
  extract?: string;
}

/** The checker's JSON report (it writes it to stderr, and exits non-zero when it found errors). */
async function runChecker(files: string[]): Promise<string> {
  try {
    const result = await promisify(execFile)('java', ['-jar', VNU_JAR, '--errors-only', '--format', 'json', ...files], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return result.stderr;
  } catch (error) {
    const failed = error as { code?: string; stderr?: string };
    if (failed.code === 'ENOENT') {
      throw new Error('Java is needed for the Nu HTML checker: apt-get install -y default-jre-headless', { cause: error });
    }
    return failed.stderr ?? '';
  }
}

async function publicPaths(): Promise<string[]> {
  const blogs = (await (await fetch(server.url('/api/blogs'))).json()) as {
    id: number;
    title: string;
    category_id: number | null;
  }[];
  // The demo articles with study blocks: MathML, highlighted code, tables, callouts, footnotes.
  const study = blogs.filter((blog) => Object.hasOwn(STUDY_BLOCKS, blog.title));
  expect(study).toHaveLength(Object.keys(STUDY_BLOCKS).length);
  const categories = (await (await fetch(server.url('/api/categories'))).json()) as { id: number }[];
  return [
    '/',
    '/?page=2',
    '/blogs',
    `/blogs?category=${categories[0]!.id}`,
    '/blogs?search=energy',
    '/download',
    '/about',
    '/contact',
    '/login',
    '/register',
    '/no-such-page',
    ...blogs.slice(0, 6).map((blog) => `/blog/${blog.id}`),
    ...study.map((blog) => `/blog/${blog.id}`),
  ];
}

describe('the Nu HTML checker', () => {
  it('finds no error on any public page', async () => {
    const dir = tempDir();
    const files: string[] = [];
    for (const [i, pagePath] of (await publicPaths()).entries()) {
      const response = await fetch(server.url(pagePath));
      const file = path.join(dir, `${i}-${pagePath.replace(/[^a-z0-9]+/gi, '_')}.html`);
      await fs.writeFile(file, await response.text());
      files.push(file);
    }
    const output = await runChecker(files);
    const messages = (JSON.parse(output || '{"messages":[]}') as { messages: VnuMessage[] }).messages;
    const errors = messages
      .filter((m) => m.type === 'error' || m.subType === 'fatal')
      .map((m) => `${path.basename(m.url)}: ${m.message} ${m.extract ?? ''}`);
    expect(errors).toEqual([]);
  });
});
