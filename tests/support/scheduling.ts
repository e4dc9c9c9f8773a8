import fs from 'node:fs';

/** The scheduling policies /proc reports that the tests look for. */
export const SCHED_OTHER = 0;
export const SCHED_IDLE = 5;

/** A thread's or process's scheduling policy from its `stat` file (`/proc/<pid>/stat`, `/proc/self/task/<tid>/stat`). */
export function schedulingPolicyOf(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  // Field 41; the name in parentheses may hold spaces, so count from after it (field 3).
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
}

/** Whether this process holds CAP_SYS_NICE, which moving a thread out of SCHED_IDLE needs here. */
export function hasSysNice(): boolean {
  const caps = /^CapEff:\s*([0-9a-f]+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return caps !== null && (BigInt(`0x${caps[1]}`) & (1n << 23n)) !== 0n;
}
