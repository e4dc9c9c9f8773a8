import SQLite from 'better-sqlite3';
import type { TestServer } from '../support/server.ts';

/**
 * Helpers for the attack tests (security-input, fuzz-api): a snapshot of everything a request
 * could change, read both through the public and admin API (docs/product.md#the-api) and straight
 * from the SQLite file, so "no data change" means no change anywhere but the sessions table.
 */

export interface DataSnapshot {
  api: Record<string, unknown>;
  tables: Record<string, unknown[]>;
}

/** Tables whose every row is content or accounts; sessions come and go with logins. */
const TABLES = ['users', 'categories', 'blogs', 'comments', 'carousel_slides', 'uploads'];

async function getJson(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(server.url(path), { headers });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

async function getAllPages(
  server: TestServer,
  path: string,
  pageSize: number,
  headers: Record<string, string> = {},
): Promise<unknown[]> {
  const all: unknown[] = [];
  for (let offset = 0; ; offset += pageSize) {
    const page = (await getJson(
      server,
      `${path}${path.includes('?') ? '&' : '?'}limit=${pageSize}&offset=${offset}`,
      headers,
    )) as unknown[];
    all.push(...page);
    if (page.length < pageSize) return all;
  }
}

export async function snapshotData(server: TestServer, adminToken: string): Promise<DataSnapshot> {
  const admin = { Authorization: `Bearer ${adminToken}` };
  const api = {
    blogs: await getAllPages(server, '/api/blogs', 200),
    categories: await getJson(server, '/api/categories'),
    carousel: await getJson(server, '/api/carousel'),
    comments: await getAllPages(server, '/api/blogs/comment', 500, admin),
  };
  const db = new SQLite(server.databasePath, { readonly: true, fileMustExist: true });
  try {
    const tables: Record<string, unknown[]> = {};
    for (const table of TABLES) tables[table] = db.prepare(`select * from ${table} order by id`).all();
    return { api, tables };
  } finally {
    db.close();
  }
}

/** Row counts, for a readable failure message. */
export function countsOf(snapshot: DataSnapshot): Record<string, number> {
  return Object.fromEntries(Object.entries(snapshot.tables).map(([name, rows]) => [name, rows.length]));
}

export interface WholeAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** One request, its body read whole. */
export async function fetchWhole(server: TestServer, path: string, init: RequestInit = {}): Promise<WholeAnswer> {
  const response = await fetch(server.url(path), { redirect: 'manual', ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}
