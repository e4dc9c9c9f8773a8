import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { markStoreOpen } from './crash-marker.ts';
import { dropStoredPages } from './store-file.ts';
import { trackTempDirs } from '../../../tests/support/temp-dirs.ts';

const tempDir = trackTempDirs('run-marker-');

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function bootId(): string {
  return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
}

function leaveMarker(dir: string, pid: number, boot = bootId()): void {
  fs.writeFileSync(path.join(dir, `running-${pid}`), JSON.stringify({ pid, bootId: boot }));
}

function makeStore(dir: string): void {
  const db = new SQLite(path.join(dir, 'pages.sqlite'));
  db.pragma('journal_mode = WAL');
  db.exec("create table pages (key text primary key, body blob); insert into pages values ('/', x'00')");
  db.close();
}

/**
 * A zombie: a process that has exited but that its parent never reaps (`sleep` exec'd in place of
 * the shell that started it never waits), as a killed serving process under a container's PID 1
 * that is not an init. Resolves with its pid once /proc shows it dead, and a stop for its parent.
 */
async function zombie(): Promise<{ pid: number; stop: () => void }> {
  // The background `sleep` must end after the shell has become `sleep 60`, or the shell reaps it.
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = await new Promise<number>((resolve) =>
    parent.stdout!.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  const state = () => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    } catch {
      return 'gone';
    }
  };
  while (!['Z', 'gone'].includes(state())) await new Promise((resolve) => setTimeout(resolve, 20));
  if (state() === 'gone') {
    // Reaped after all (the shell was still a shell when it ended, on a very busy machine): again.
    parent.kill('SIGKILL');
    return zombie();
  }
  return { pid, stop: () => parent.kill('SIGKILL') };
}

describe('markStoreOpen', () => {
  it('sees no crash on a fresh folder or after a clean release', () => {
    const dir = tempDir();
    const first = markStoreOpen(dir);
    expect(first.previousRunCrashed).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([`running-${process.pid}`]);
    first.release();
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(markStoreOpen(dir).previousRunCrashed).toBe(false);
  });

  it('sees a crash in the marker of a process that is gone, and removes that marker', () => {
    const dir = tempDir();
    const pid = deadPid();
    leaveMarker(dir, pid);
    const run = markStoreOpen(dir);
    expect(run.previousRunCrashed).toBe(true);
    expect(run.othersRunning).toBe(0);
    expect(fs.existsSync(path.join(dir, `running-${pid}`))).toBe(false);
  });

  it('counts markers from before a reboot, from an earlier run with our pid, and unreadable ones as crashes', () => {
    for (const leave of [
      (dir: string) => leaveMarker(dir, process.ppid, 'another-boot'),
      (dir: string) => leaveMarker(dir, process.pid),
      (dir: string) => fs.writeFileSync(path.join(dir, 'running-123'), '{"pid":'),
    ]) {
      const dir = tempDir();
      leave(dir);
      expect(markStoreOpen(dir).previousRunCrashed).toBe(true);
    }
  });

  it('leaves a live process on the same store alone', () => {
    const dir = tempDir();
    leaveMarker(dir, process.ppid);
    const run = markStoreOpen(dir);
    expect(run.previousRunCrashed).toBe(false);
    expect(run.othersRunning).toBe(1);
    expect(fs.existsSync(path.join(dir, `running-${process.ppid}`))).toBe(true);
  });
});

describe('dropStoredPages', () => {
  it('removes the store files when no other process has them open', () => {
    const dir = tempDir();
    makeStore(dir);
    fs.writeFileSync(path.join(dir, 'pages.sqlite-wal'), '');
    dropStoredPages(dir, 0);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('empties the pages table and keeps the file when another process uses it', () => {
    const dir = tempDir();
    makeStore(dir);
    dropStoredPages(dir, 1);
    const db = new SQLite(path.join(dir, 'pages.sqlite'));
    expect(db.prepare('select count(*) as n from pages').get()).toEqual({ n: 0 });
    db.close();
  });

  it('does nothing without a store', () => {
    const dir = tempDir();
    expect(() => dropStoredPages(dir, 0)).not.toThrow();
  });

  it('counts a marker whose process is a zombie (dead, never reaped) as a crash', async () => {
    const dir = tempDir();
    makeStore(dir);
    const dead = await zombie();
    try {
      // Signal 0 still reaches it: that alone would call it alive.
      expect(() => process.kill(dead.pid, 0)).not.toThrow();
      leaveMarker(dir, dead.pid);
      const run = markStoreOpen(dir);
      expect(run.previousRunCrashed).toBe(true);
      run.release();
    } finally {
      dead.stop();
    }
  });
});
