/**
 * Which processes serve a request of `npm run bench:scale`, and the CPU each of their threads has
 * used: the server itself and, on PostgreSQL, the backends of its connections, which do the
 * queries' work there.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { threadNanos } from './proc.js';

/** CPU nanoseconds used so far, by thread (`<pid>/<tid>`). */
export type CpuReading = Map<string, number>;

export type CpuReader = (() => Promise<CpuReading>) & { close: () => Promise<void> };

export async function cpuReader(serverPid: number, postgresUrl?: string): Promise<CpuReader> {
  const admin = postgresUrl ? new pg.Client({ connectionString: postgresUrl }) : undefined;
  await admin?.connect();
  const read = async () => {
    const pids = [serverPid];
    if (admin) {
      const { rows } = await admin.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = current_database()
           and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      pids.push(...rows.map((row) => row.pid));
    }
    const used: CpuReading = new Map();
    for (const pid of pids) {
      try {
        for (const [tid, nanos] of threadNanos(pid)) used.set(`${pid}/${tid}`, nanos);
      } catch {
        // a connection closed meanwhile
      }
    }
    return used;
  };
  return Object.assign(read, { close: async () => void (await admin?.end()) });
}

/**
 * CPU milliseconds from one reading to a later one: the threads alive at the later, each from
 * where it stood at the first (a thread started meanwhile counts whole, one that ended not at all).
 */
export function cpuMsBetween(before: CpuReading, after: CpuReading): number {
  let nanos = 0;
  for (const [thread, used] of after) nanos += used - (before.get(thread) ?? 0);
  return nanos / 1e6;
}

/** A window of this many ms, the server left alone, in which it counts as idle… */
const QUIET_MS = 500;
/** …when it used less CPU than this in it (an idle server's timers use about 3 ms a second). */
const QUIET_CPU_MS = 10;
/** Waits no longer than this for background work to end. */
const SETTLE_LIMIT_MS = 120_000;

/**
 * Waits until the processes are idle: background work that a change left (SQLite's search index
 * merges and checkpoints, PostgreSQL's autovacuum is not theirs) would be charged to the requests
 * measured meanwhile. Returns the ms it waited; past the limit it gives up and says so.
 */
export async function settle(cpu: () => Promise<CpuReading>): Promise<number> {
  const started = performance.now();
  let before = await cpu();
  for (;;) {
    await sleep(QUIET_MS);
    const after = await cpu();
    if (cpuMsBetween(before, after) < QUIET_CPU_MS) return performance.now() - started;
    if (performance.now() - started > SETTLE_LIMIT_MS) {
      console.warn(`  the server was still busy after ${SETTLE_LIMIT_MS / 1000} s`);
      return performance.now() - started;
    }
    before = after;
  }
}
