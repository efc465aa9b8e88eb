/**
 * Which processes serve a request of `npm run bench:scale`, and the CPU each has used: the server
 * itself and, on PostgreSQL, the backends of its connections, which do the queries' work there.
 */
import pg from 'pg';
import { cpuNanos } from './proc.js';

export type CpuReader = (() => Promise<Map<number, number>>) & { close: () => Promise<void> };

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
    const used = new Map<number, number>();
    for (const pid of pids) {
      try {
        used.set(pid, cpuNanos(pid));
      } catch {
        // a connection closed meanwhile
      }
    }
    return used;
  };
  return Object.assign(read, { close: async () => void (await admin?.end()) });
}
