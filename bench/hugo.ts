// The pre-render's peer: Hugo building the same pages from the same database. The articles keep
// their titles, dates, categories and HTML; the lists are paged as ours are (home 6 a page,
// /blogs and each category one article a page), with the category nav on every page and the ten
// newest titles on the home page. Hugo comes from Debian's packages, installed when missing.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { childrenCpuFromTimes, highWaterMb, processTree, rssMb, stopOnInterrupt } from './site.ts';
import { HOME_PAGE_SIZE, LIST_PAGE_SIZE, RECENT_LIMIT } from '../src/server/content/reader.ts';

const HUGO_PATHS = ['/usr/bin/hugo', '/usr/local/bin/hugo'];

/** Hugo's binary, installed with apt-get when it is missing. */
export function ensureHugo(): string {
  let found = HUGO_PATHS.find((file) => fs.existsSync(file));
  if (found) return found;
  console.log('Hugo is missing: installing it from Debian (apt-get install -y hugo)...');
  for (const args of [['update'], ['install', '-y', 'hugo']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed; install Hugo and run again.`);
  }
  found = HUGO_PATHS.find((file) => fs.existsSync(file));
  if (!found) throw new Error('Hugo is still missing after apt-get install.');
  return found;
}

const BASE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ block "title" . }}{{ .Title }}{{ end }} | {{ site.Title }}</title>
<link rel="canonical" href="{{ .Permalink }}"><meta name="description" content="{{ .Summary | plainify | truncate 160 }}">
</head><body>
<header><a href="/">{{ site.Title }}</a><nav aria-label="Categories"><ul>
{{ range site.Taxonomies.categories.ByCount }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a></li>{{ end }}
</ul></nav><form action="/blogs/" method="get"><input name="search" aria-label="Search"></form></header>
<main>{{ block "main" . }}{{ end }}</main>
<footer><a href="/about/">About</a> <a href="/contact/">Contact</a> <a href="/download/">Download</a></footer>
</body></html>`;

const CARD = `<article class="card"><h2><a href="{{ .RelPermalink }}">{{ .Title }}</a></h2>
<p><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time>
{{ with .Params.categories }}{{ range . }}<a href="{{ "categories/" | relURL }}{{ . | urlize }}/">{{ . }}</a>{{ end }}{{ end }}</p>
<p>{{ .Summary | plainify | truncate 200 }}</p></article>`;

const PAGER = `{{ with $pager }}<nav aria-label="Pages">{{ if .HasPrev }}<a href="{{ .Prev.URL }}">Previous</a>{{ end }}
<span>Page {{ .PageNumber }} of {{ .TotalPages }}</span>{{ if .HasNext }}<a href="{{ .Next.URL }}">Next</a>{{ end }}</nav>{{ end }}`;

const LAYOUTS: Record<string, string> = {
  '_default/baseof.html': BASE,
  '_default/single.html': `{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2 January 2006" }}</time>
{{ range .Params.categories }}<a href="{{ "categories/" | relURL }}{{ . | urlize }}/">{{ . }}</a>{{ end }}</p>
{{ .Content }}</article>{{ end }}`,
  '_default/list.html': `{{ define "main" }}<h1>{{ .Title }}</h1>{{ $pager := .Paginate .Pages ${LIST_PAGE_SIZE} }}
{{ range $pager.Pages }}${CARD}{{ end }}${PAGER}{{ end }}`,
  'index.html': `{{ define "main" }}{{ $all := where site.RegularPages "Section" "blogs" }}
<aside aria-label="Latest"><ul>{{ range first ${RECENT_LIMIT} $all }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></aside>
{{ $pager := .Paginate $all ${HOME_PAGE_SIZE} }}{{ range $pager.Pages }}${CARD}{{ end }}${PAGER}{{ end }}`,
};

const yamlString = (value: string) => JSON.stringify(value);

/** Writes a Hugo site holding every article of the database; returns its folder. */
export function generateHugoSite(databasePath: string, dir: string): string {
  const site = path.join(dir, 'hugo-site');
  fs.rmSync(site, { recursive: true, force: true });
  const db = new SQLite(databasePath, { readonly: true });
  try {
    const rows = db
      .prepare(
        `select b.id, b.title, b.content, b.created_at, c.name as category
         from blogs b left join categories c on c.id = b.category_id`,
      )
      .all() as Array<{ id: number; title: string; content: string; created_at: string; category: string | null }>;
    fs.mkdirSync(path.join(site, 'content/blogs'), { recursive: true });
    fs.writeFileSync(path.join(site, 'content/blogs/_index.md'), '---\ntitle: "All articles"\n---\n');
    for (const row of rows) {
      const front = [
        `title: ${yamlString(row.title)}`,
        `date: ${new Date(row.created_at).toISOString()}`,
        ...(row.category ? [`categories: [${yamlString(row.category)}]`] : []),
      ];
      fs.writeFileSync(path.join(site, `content/blogs/${row.id}.html`), `---\n${front.join('\n')}\n---\n${row.content}\n`);
    }
    for (const name of ['about', 'contact', 'download'])
      fs.writeFileSync(path.join(site, `content/${name}.md`), `---\ntitle: "${name}"\n---\nThe ${name} page.\n`);
  } finally {
    db.close();
  }
  for (const [file, text] of Object.entries(LAYOUTS)) {
    fs.mkdirSync(path.dirname(path.join(site, 'layouts', file)), { recursive: true });
    fs.writeFileSync(path.join(site, 'layouts', file), text);
  }
  fs.writeFileSync(
    path.join(site, 'hugo.toml'),
    [
      'baseURL = "http://127.0.0.1/"',
      'title = "Study site"',
      // Ours has no feeds per list, no per-kind sitemaps and no page listing the categories.
      'disableKinds = ["RSS", "sitemap", "robotsTXT", "taxonomy"]',
      'ignoreErrors = ["error-disable-taxonomy"]',
      '[taxonomies]',
      '  category = "categories"',
      '[markup.goldmark.renderer]',
      '  unsafe = true',
    ].join('\n'),
  );
  return site;
}

function countHtml(dir: string): number {
  let count = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile() && entry.name.endsWith('.html')) count++;
  return count;
}

/** The bytes of every file under `dir` (`apparent`), and the disk blocks they take (`disk`, as du counts). */
export function bytesUnder(dir: string): { apparent: number; disk: number } {
  let apparent = 0;
  let disk = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const stat = fs.statSync(path.join(entry.parentPath, entry.name));
    apparent += stat.size;
    disk += stat.blocks * 512;
  }
  return { apparent, disk };
}

export interface HugoBuild {
  pages: number;
  seconds: number;
  /** User + system CPU seconds of the build. */
  cpuSeconds: number;
  /** Peak resident memory, sampled every 100 ms and the kernel's high-water mark. */
  peakMb: number;
  /** The output's bytes, and the disk it takes. */
  bytes: { apparent: number; disk: number };
}

/**
 * One full Hugo build at the given nice value (the render workers'), into a fresh folder, timed
 * from the process's start; its CPU time from the shell's `times`, its memory from /proc.
 */
export async function buildWithHugo(hugo: string, site: string, nice: number): Promise<HugoBuild> {
  const out = path.join(site, '..', 'hugo-public');
  fs.rmSync(out, { recursive: true, force: true });
  const command = `nice -n ${nice} '${hugo}' --quiet --source '${site}' --destination '${out}' && times`;
  const started = performance.now();
  const child = stopOnInterrupt(spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let peakMb = 0;
  const sampler = setInterval(() => {
    for (const pid of processTree(child.pid!).slice(1)) peakMb = Math.max(peakMb, rssMb(pid), highWaterMb(pid));
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`hugo failed: ${stderr}`);
  return { pages: countHtml(out), seconds, cpuSeconds: childrenCpuFromTimes(stdout), peakMb, bytes: bytesUnder(out) };
}
