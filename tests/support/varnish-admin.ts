import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestVarnish } from './varnish.ts';

/**
 * Reads a running test Varnish from the outside, as an operator would: `varnishstat` counters and
 * `varnishadm` commands on the instance started by startVarnish (its `-n` folder).
 */

const run = promisify(execFile);

const instanceOf = (varnish: TestVarnish) => path.join(varnish.dir, 'instance');

/** One MAIN counter, e.g. `MAIN.n_object` (objects in the cache). */
export async function varnishCounter(varnish: TestVarnish, field: string): Promise<number> {
  const { stdout } = await run('varnishstat', ['-n', instanceOf(varnish), '-1', '-f', field]);
  const match = new RegExp(`^${field.replace('.', '\\.')}\\s+(\\d+)`, 'm').exec(stdout);
  if (!match) throw new Error(`varnishstat has no ${field}:\n${stdout}`);
  return Number(match[1]);
}

/** Each backend of the loaded VCL (`app1`, `app2`, ...) and whether its probe holds it healthy or sick. */
export async function backendHealth(varnish: TestVarnish): Promise<Record<string, string>> {
  const { stdout } = await run('varnishadm', ['-n', instanceOf(varnish), 'backend.list']);
  const health: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const match = /^\S*?\.?(app\d+)\s+\S+\s+\S+\s+(healthy|sick)\b/.exec(line.trim());
    if (match) health[match[1]!] = match[2]!;
  }
  return health;
}
