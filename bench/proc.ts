/**
 * What Linux's /proc says about a server process: its resident memory (now and at its peak) and
 * the CPU time it has used. Read from outside, so the server needs no endpoint for it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/** A field of /proc/<pid>/status in bytes (VmRSS: resident now; VmHWM: its peak). */
export function procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second, the unit of the CPU times in /proc/<pid>/stat. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds (user + system) the process has used since it started. */
export function cpuSeconds(pid: number): number {
  // Fields 14 and 15 (utime, stime); the name in parentheses (field 2) may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/**
 * Watches processes' resident memory: each one's peak while `work` runs. Linux resets the kernel's
 * high-water mark on `echo 5 > clear_refs`, which catches a peak between two samples; sampling
 * every 5 ms covers a kernel that does not allow it.
 */
export async function peakRss<T>(pids: number[], work: () => Promise<T>) {
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      // sampling alone, then
    }
  }
  const before = pids.map((pid) => procStatus(pid, 'VmRSS') ?? 0);
  const peaks = [...before];
  const sample = () => {
    for (const [i, pid] of pids.entries()) {
      peaks[i] = Math.max(peaks[i]!, procStatus(pid, 'VmRSS') ?? 0, procStatus(pid, 'VmHWM') ?? 0);
    }
  };
  const timer = setInterval(sample, 5);
  try {
    const result = await work();
    sample();
    return { result, before, peaks };
  } finally {
    clearInterval(timer);
  }
}

/**
 * CPU nanoseconds each thread of the process has run, by thread id (the first field of each
 * thread's /proc/<pid>/task/<tid>/schedstat): precise enough for one request, where
 * /proc/<pid>/stat counts clock ticks of 10 ms. Compare two readings thread by thread: a thread
 * that ended between them (SQLite's checkpointer ends when idle) takes its whole time with it, and
 * a sum over the process would count that as negative time.
 */
export function threadNanos(pid: number): Map<number, number> {
  const used = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const nanos = Number(
        readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0],
      );
      used.set(Number(tid), nanos);
    } catch {
      // the thread ended meanwhile
    }
  }
  return used;
}
