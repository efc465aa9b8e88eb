import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { MigrationDialect } from '../db/migrate.js';
import type { Clock } from '../../lib/clock.js';

/**
 * The columns every queue table has (the outbox, webhook deliveries): a row is a job, claimed by
 * moving `locked_until` forward (its lease) and bumping `attempts`, which also tells this claim from
 * any later one: every write of a claimed job requires the count it was claimed with.
 */
export interface JobRow {
  id: string;
  attempts: number;
  next_attempt_at: number | null;
  locked_until: number | null;
}

/** A queue table seen through the columns the runner reads (the rest are the feature's). */
type QueueDb = Kysely<Record<string, JobRow & Record<string, unknown>>>;

export interface QueueDefinition<Row extends JobRow> {
  /** Names the queue in logs. */
  name: string;
  table: string;
  /**
   * The column and value of a job still to do (`status = 'pending'`, `closed_at is null`); none
   * when every row is (its handler deletes it once done).
   */
  open?: { column: string; value: string | null };
  /**
   * Fairness: jobs of one tenant (a catalogue, a recipient) hold at most `perTenant` leases at
   * once across every instance, and those of one group inside it (an endpoint) `perGroup`; a
   * tenant with none in flight goes before those that have some, whatever its jobs' age.
   */
  tenant: { column: string; perTenant: number; group?: { column: string; perGroup: number } };
  /** Jobs this instance runs at once. */
  concurrency: number;
  /** How long a claim is owned; a crashed worker's jobs come back after it. */
  leaseMs: number;
  /** How often it looks for due jobs without being woken. */
  pollMs: number;
  /**
   * Does one attempt of a claimed job and settles it (`job.finish`, `job.retryAt`); a job left
   * unsettled comes back when its lease ends. Resolves true when the job counts for `drain()`
   * (a mail sent, a delivery attempted). `signal` aborts when the runner stops: a job that
   * honours it calls `job.release()` so another instance takes it at once.
   */
  handle(job: Job<Row>, signal: AbortSignal): Promise<boolean>;
}

/** A claimed job and the ways to settle it, each only while the claim is still this one. */
export interface Job<Row extends JobRow> {
  row: Row;
  /** Closes the job for good with these column values (the open column among them). */
  finish(values: Partial<Row>): Promise<void>;
  /** Tries again at `at`, with these column values. */
  retryAt(at: number, values?: Partial<Row>): Promise<void>;
  /** Gives the claim back unsettled: due again now, for any instance. */
  release(): Promise<void>;
}

/**
 * Waits that grow with each failed attempt and stop growing at the last: `[5 s, 5 min, …]`, or
 * doubling from `first` up to `cap`.
 */
export const backoff = {
  schedule:
    (waits: readonly number[]) =>
    (attempts: number): number =>
      waits[Math.min(Math.max(attempts, 1), waits.length) - 1]!,
  doubling:
    (first: number, cap: number) =>
    (attempts: number): number =>
      Math.min(first * 2 ** Math.max(attempts - 1, 0), cap),
};

interface QueueDeps {
  db: Kysely<unknown>;
  dialect: MigrationDialect;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * A table-backed queue: jobs are rows written in the transaction of the change that needs them,
 * claimed with a lease by a worker on any instance, run `concurrency` at a time, fairly between
 * tenants, and retried as their handler says. `wake()` looks now (call it after the commit);
 * otherwise the worker looks every `pollMs` while started.
 */
export class TableQueue<Row extends JobRow> {
  private readonly db: QueueDb;
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private filling: Promise<void> | undefined;
  private wakeRequested = false;
  private started = false;
  private abort = new AbortController();

  constructor(
    private readonly definition: QueueDefinition<Row>,
    private readonly deps: QueueDeps,
  ) {
    this.db = deps.db as unknown as QueueDb;
  }

  get name() {
    return this.definition.name;
  }

  start() {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    this.wake();
  }

  /** Stops claiming, aborts the jobs in flight (those that honour it give their claim back). */
  async stop() {
    this.started = false;
    clearTimeout(this.timer);
    this.abort.abort();
    await this.filling;
    await Promise.all(this.inFlight);
  }

  /** Looks for due jobs now rather than at the next poll. */
  wake() {
    if (!this.started) return;
    if (this.filling) {
      this.wakeRequested = true;
      return;
    }
    clearTimeout(this.timer);
    this.filling = this.fill()
      .catch((error: unknown) => this.deps.log.error({ err: error }, `${this.name} worker failed`))
      .finally(() => {
        this.filling = undefined;
        if (!this.started) return;
        if (this.wakeRequested) {
          this.wakeRequested = false;
          this.wake();
          return;
        }
        this.timer = setTimeout(() => this.wake(), this.definition.pollMs);
        this.timer.unref();
      });
  }

  /**
   * Runs every job due now to its end (new ones due meanwhile included), as many at once as the
   * worker would, and returns how many counted. What tests call instead of starting the worker.
   */
  async drain(): Promise<number> {
    let counted = 0;
    const running = new Set<Promise<void>>();
    for (;;) {
      const before = running.size;
      const row = before < this.definition.concurrency ? await this.claim() : undefined;
      if (row) {
        const done = this.run(row, new AbortController().signal).then((counts) => {
          if (counts) counted += 1;
          running.delete(done);
        });
        running.add(done);
        continue;
      }
      // Nothing was in flight when it looked, and nothing was due: done. Otherwise what was in
      // flight may have held a bound: look again once a job ends.
      if (before === 0) return counted;
      if (running.size > 0) await Promise.race(running);
    }
  }

  /** Claims due jobs into free slots; each finished job frees its slot and looks again. */
  private async fill(): Promise<void> {
    while (this.started && this.inFlight.size < this.definition.concurrency) {
      const row = await this.claim();
      if (!row) return;
      const done: Promise<void> = this.run(row, this.abort.signal).then(() => {
        this.inFlight.delete(done);
        this.wake();
      });
      this.inFlight.add(done);
    }
  }

  private async run(row: Row, signal: AbortSignal): Promise<boolean> {
    try {
      return await this.definition.handle(this.jobOf(row), signal);
    } catch (error) {
      // Unsettled, it comes back when its lease ends.
      this.deps.log.error({ err: error, jobId: row.id }, `${this.name}: a job failed`);
      return false;
    }
  }

  private jobOf(row: Row): Job<Row> {
    const settle = (values: Record<string, unknown>) =>
      this.db
        .updateTable(this.definition.table)
        .set({ ...values, locked_until: null } as never)
        .where('id', '=', row.id)
        .where('attempts', '=', row.attempts)
        .execute()
        .then(() => undefined);
    return {
      row,
      finish: (values) => settle(values),
      retryAt: (at, values = {}) => settle({ ...values, next_attempt_at: at }),
      release: () => settle({ next_attempt_at: this.deps.clock.now() }),
    };
  }

  /**
   * Claims one due job by moving its lease forward, fairly: first among tenants with nothing in
   * flight (anywhere), then among those below their bound. The in-flight
   * counts are the leases in the table, so the bounds hold across instances (give or take the
   * claims two instances make at the same moment). The conditional update makes the claim atomic:
   * a job another instance claimed first is looked past.
   */
  private async claim(): Promise<Row | undefined> {
    const { table, open, tenant, leaseMs } = this.definition;
    const group = tenant.group;
    const now = this.deps.clock.now();
    // Every leased job is open (settling a job ends its lease): read by the lease alone, down its
    // partial index, not among every open job.
    const leased = await this.db
      .selectFrom(table)
      .select([`${tenant.column} as tenant`, ...(group ? [`${group.column} as grp`] : [])] as never)
      .where('locked_until', '>', now)
      .execute();
    const perTenant = countBy(leased, (row) => row.tenant);
    const perGroup = countBy(leased, (row) => row.grp);
    const busy = [...perTenant.keys()];
    const full = [...perTenant].filter(([, n]) => n >= tenant.perTenant).map(([key]) => key);
    const fullGroups = group
      ? [...perGroup].filter(([, n]) => n >= group.perGroup).map(([key]) => key)
      : [];
    for (const excluded of [busy, full]) {
      for (let tries = 0; tries < CLAIM_TRIES; tries += 1) {
        const id = await this.candidate(new Set(excluded), new Set(fullGroups), now);
        if (id === undefined) break;
        const claimed = await this.db
          .updateTable(table)
          .set((eb) => ({ locked_until: now + leaseMs, attempts: eb('attempts', '+', 1) }))
          .where('id', '=', id)
          .$if(open !== undefined, (update) =>
            update.where(open!.column, open!.value === null ? 'is' : '=', open!.value),
          )
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
          .returningAll()
          .executeTakeFirst();
        if (claimed) return claimed as unknown as Row;
      }
      // Nothing due among idle tenants: busy ones below their bound may go.
      if (busy.length === 0) return undefined;
    }
    return undefined;
  }

  /**
   * The earliest due job, unleased, of a tenant not `excluded` and a group not full: read from
   * the head of the queue, or, when the head is all excluded tenants' (a backlog of a busy one),
   * as each other tenant's earliest down the index by tenant: the cost follows the tenants with
   * open jobs, not the jobs of the excluded ones.
   */
  private async candidate(
    excluded: Set<string>,
    fullGroups: Set<string>,
    now: number,
  ): Promise<string | undefined> {
    const { tenant } = this.definition;
    const group = tenant.group;
    const head = await this.dueRows(now)
      .select([
        'id',
        `${tenant.column} as tenant`,
        ...(group ? [`${group.column} as grp`] : []),
      ] as never)
      .orderBy('next_attempt_at')
      .limit(HEAD)
      .execute();
    const eligible = (row: Record<string, unknown>) =>
      !excluded.has(String(row.tenant)) && !(group && fullGroups.has(String(row.grp)));
    const first = head.find(eligible);
    if (first || head.length < HEAD) return first?.id as string | undefined;
    let earliest: { id: string; next_attempt_at: number } | undefined;
    for (const other of await this.tenantsWithOpenJobs()) {
      if (excluded.has(other)) continue;
      const row = await this.dueRows(now)
        .select(['id', 'next_attempt_at'])
        .where(tenant.column, '=', other)
        .$if(group !== undefined && fullGroups.size > 0, (query) =>
          query.where(group!.column, 'not in', [...fullGroups]),
        )
        .orderBy('next_attempt_at')
        .limit(1)
        .executeTakeFirst();
      if (row && (!earliest || Number(row.next_attempt_at) < Number(earliest.next_attempt_at))) {
        earliest = row as { id: string; next_attempt_at: number };
      }
    }
    return earliest?.id;
  }

  /** The tenants with open jobs, one index seek each (a loose index scan). */
  private async tenantsWithOpenJobs(): Promise<string[]> {
    const { table, open, tenant } = this.definition;
    const column = sql.ref(tenant.column);
    const isOpen = open
      ? open.value === null
        ? sql`${sql.ref(open.column)} is null`
        : sql`${sql.ref(open.column)} = ${open.value}`
      : sql`1 = 1`;
    const { rows } = await sql<{ tenant: string | null }>`
      with recursive tenants (tenant) as (
        select min(${column}) from ${sql.table(table)} where ${isOpen}
        union all
        select (select min(${column}) from ${sql.table(table)} where ${isOpen} and ${column} > tenants.tenant)
        from tenants where tenants.tenant is not null
      )
      select tenant from tenants where tenant is not null`.execute(this.deps.db);
    return rows.map((row) => String(row.tenant));
  }

  /** Open jobs due now and not leased. */
  private dueRows(now: number) {
    return this.openRows()
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]));
  }

  private openRows() {
    const { table, open } = this.definition;
    const rows = this.db.selectFrom(table);
    return open ? rows.where(open.column, open.value === null ? 'is' : '=', open.value) : rows;
  }
}

/** Due jobs read from the head of a queue before it looks tenant by tenant. */
const HEAD = 64;
/** Candidates tried in a row when another instance claims each first. */
const CLAIM_TRIES = 3;

function countBy<T>(rows: T[], key: (row: T) => unknown): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const value = key(row);
    if (value === undefined || value === null) continue;
    const name = String(value);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}
