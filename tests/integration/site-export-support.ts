import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestServer } from '../support/server.ts';
import { until } from '../support/wait.ts';

/** The round trip's helpers (site-export.test.ts): the scripts run as an operator runs them, and a site's public answers. */

const root = path.resolve(import.meta.dirname, '../..');

export interface Run {
  code: number | null;
  output: string;
}

export function runScript(
  script: string,
  args: string[],
  site: { dir: string; databasePath: string; uploadsDir: string },
): Promise<Run> {
  const env = {
    ...process.env,
    DATABASE_PATH: site.databasePath,
    UPLOADS_DIR: site.uploadsDir,
    PAGE_STORE_DIR: path.join(site.dir, 'pages'),
  };
  const child = spawn(process.execPath, [script, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** Every public address of the site: its sitemap, the list pages, each category, the static pages, the feed and each upload the pages name. */
export async function publicAddresses(server: TestServer): Promise<string[]> {
  const sitemap = await (await fetch(server.url('/sitemap.xml'))).text();
  const found = new Set([
    '/',
    '/blogs',
    '/about',
    '/contact',
    '/rss.xml',
    '/sitemap.xml',
    '/robots.txt',
    '/manifest.webmanifest',
  ]);
  for (const [, loc] of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g))
    found.add(new URL(loc!.replace(/&amp;/g, '&')).pathname + new URL(loc!.replace(/&amp;/g, '&')).search);
  for (const address of [...found]) {
    const html = await (await fetch(server.url(address))).text();
    for (const [, href] of html.matchAll(/(?:href|src)="(\/(?:blogs\?category=\d+|uploads\/[^"]+))"/g))
      found.add(href!.replace(/&amp;/g, '&'));
  }
  return [...found].sort();
}

export interface Answered {
  status: number;
  type: string;
  body: Buffer;
}

export async function answersOf(server: TestServer, addresses: string[]): Promise<Map<string, Answered>> {
  const answers = new Map<string, Answered>();
  for (const address of addresses) {
    // A page another serving process has not refreshed yet is answered STALE (the old site title):
    // a page is taken once it is answered as it now is.
    const response = await until(
      async () => {
        const answer = await fetch(server.url(address));
        if (answer.headers.get('x-page-store') === 'STALE') await answer.arrayBuffer();
        return answer;
      },
      (answer) => answer.headers.get('x-page-store') !== 'STALE',
      `${address} refreshed`,
    );
    answers.set(address, {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: Buffer.from(await response.arrayBuffer()),
    });
  }
  return answers;
}

/** The parts of a page that differ per answer by design: the stylesheet nonce and the view counter's token. */
export function comparable(answer: Answered): string {
  if (!/text|xml|json/.test(answer.type)) return answer.body.toString('base64');
  return answer.body.toString('utf8').replace(/nonce="[^"]*"/g, 'nonce=""');
}
