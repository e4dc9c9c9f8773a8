// The resident memory of a server's whole process tree, sampled through the phases of a benchmark,
// and the report of its peaks against a budget.
import fs from 'node:fs';
import { highWaterMb, processRssMb, processTree } from './site.ts';

const f0 = (n: number) => n.toFixed(0);

/** A process's proportional set size and anonymous memory in MB, from /proc/<pid>/smaps_rollup. */
function readRollup(pid: number): { pss: number; anon: number } {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
    return { pss: kb('Pss') / 1024, anon: kb('Anonymous') / 1024 };
  } catch {
    return { pss: 0, anon: 0 };
  }
}

/** Samples the resident memory of every process under `pid` until stopped; the peaks by phase. */
export class MemorySampler {
  readonly phases: Array<{
    name: string;
    peakTotal: number;
    /** Peak of the processes' proportional set sizes: pages they share (Node's own code) counted once. */
    peakPss: number;
    /** Peak of their private anonymous memory (heaps, buffers): what no other process shares. */
    peakAnon: number;
    peakEach: Map<number, number>;
    samples: number;
  }> = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly pid: number;

  constructor(pid: number) {
    this.pid = pid;
  }

  /** Samples from now on count to this phase: a name given again (a phase of every round) goes on with its peaks. */
  phase(name: string): void {
    let current = this.phases.find((phase) => phase.name === name);
    if (!current) {
      current = { name, peakTotal: 0, peakPss: 0, peakAnon: 0, peakEach: new Map<number, number>(), samples: 0 };
      this.phases.push(current);
    }
    if (this.timer) clearInterval(this.timer);
    const sample = () => {
      let total = 0;
      let pss = 0;
      let anon = 0;
      for (const pid of processTree(this.pid)) {
        const mb = processRssMb(pid);
        total += mb;
        current.peakEach.set(pid, Math.max(current.peakEach.get(pid) ?? 0, mb));
        const rollup = readRollup(pid);
        pss += rollup.pss;
        anon += rollup.anon;
      }
      current.peakTotal = Math.max(current.peakTotal, total);
      current.peakPss = Math.max(current.peakPss, pss);
      current.peakAnon = Math.max(current.peakAnon, anon);
      current.samples++;
    };
    sample();
    this.timer = setInterval(sample, 200);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Prints each phase's peak against the budget, then each process's high-water mark. */
  report(budgetMb: number): void {
    const meets = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log(
      `\nMemory of the server's processes (RSS summed, sampled every 200 ms), peak by phase; budget < ${budgetMb} MB for all together. ` +
        `RSS counts Node's own code (about 50-70 MB, shared) once per process; PSS shares it out, and anonymous memory is each process's own`,
    );
    for (const phase of this.phases) {
      const each = [...phase.peakEach].map(([pid, mb]) => `${pid === this.pid ? 'first' : pid} ${f0(mb)}`).join(', ');
      console.log(
        `  ${phase.name.padEnd(52)} ${f0(phase.peakTotal).padStart(5)} MB ${meets(phase.peakTotal < budgetMb)}  (each process's peak, MB: ${each}; ` +
          `PSS ${f0(phase.peakPss)}, anonymous ${f0(phase.peakAnon)})`,
      );
    }
    // The kernel's own peak of each process since it started, which no sample can miss.
    const highWater = processTree(this.pid).map((pid) => ({ pid, mb: highWaterMb(pid) }));
    console.log(
      `  high-water mark of each process (VmHWM, MB): ${highWater.map(({ pid, mb }) => `${pid === this.pid ? 'first' : pid} ${f0(mb)}`).join(', ')}; ` +
        `sum ${f0(highWater.reduce((sum, { mb }) => sum + mb, 0))} (the peaks need not coincide)`,
    );
  }
}
