import fs from 'node:fs';

/** A process and all its descendants (a server's first process and its serving ones), from /proc. */
export function processTree(pid: number): number[] {
  const pids = [pid];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const kid of kids ? kids.split(' ') : []) pids.push(...processTree(Number(kid)));
    }
  } catch {
    // The process ended meanwhile.
  }
  return pids;
}
