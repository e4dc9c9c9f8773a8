/**
 * A set-up warning that any serving process may meet (e.g. a proxy header without TRUST_PROXY).
 * Each process and each module copy (the server's and Astro's bundle) would print it again, so in
 * a cluster the line goes to the primary, which prints each distinct line once for the whole site.
 */
import cluster from 'node:cluster';

export interface LogOnceMessage {
  type: 'log-once';
  line: string;
}

export function warnOnceForSite(line: string): void {
  // Only a serving process of our own cluster: a process manager's IPC channel would drop it.
  if (cluster.isWorker && process.send) process.send({ type: 'log-once', line } satisfies LogOnceMessage);
  else console.warn(line);
}

/** The primary's side: prints a line the first time any serving process sends it. */
export function onceForSite(print: (line: string) => void): (message: LogOnceMessage) => void {
  const printed = new Set<string>();
  return ({ line }) => {
    if (printed.has(line)) return;
    printed.add(line);
    print(line);
  };
}
