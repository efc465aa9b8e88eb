import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { MigrationDialect } from '../db/migrate.js';
import type { Clock } from '../../lib/clock.js';
import { TableQueue, type JobRow, type QueueDefinition } from './queue.js';

export interface IntervalJob {
  /** Names the job in logs, and for `runNow`. */
  name: string;
  everyMs: number;
  /** The first run waits this long after start (`everyMs` unless told). */
  firstAfterMs?: number;
  run(): Promise<unknown>;
}

interface RunnerDeps {
  db: Kysely<unknown>;
  dialect: MigrationDialect;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The one background runner of a process: the table-backed queues (mail, webhook deliveries) and
 * the interval jobs (the digest, the sweeps, the pruning), each registered by its feature's plugin.
 * Nothing runs until `start()` (the server entry starts it once the app is ready; tests start it
 * only when they test it, and otherwise call `drain()` or `runNow()`), and `stop()` ends it all
 * when the app closes. Timers are unref'd: they never keep a process alive.
 */
export class Runner {
  private readonly queues: TableQueue<JobRow>[] = [];
  private readonly jobs = new Map<string, IntervalJob>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Map<string, Promise<void>>();
  private started = false;

  constructor(private readonly deps: RunnerDeps) {}

  /** A table-backed queue, started and stopped with the runner. */
  queue<Row extends JobRow>(definition: QueueDefinition<Row>): TableQueue<Row> {
    const queue = new TableQueue(definition, this.deps);
    this.queues.push(queue as unknown as TableQueue<JobRow>);
    if (this.started) queue.start();
    return queue;
  }

  /** A job run every `everyMs` while the runner runs, never twice at once in this process. */
  every(job: IntervalJob): void {
    if (this.jobs.has(job.name)) throw new Error(`an interval job named ${job.name} exists`);
    this.jobs.set(job.name, job);
    if (this.started) this.schedule(job);
  }

  /** Runs an interval job now (or waits for the run in progress); tests call it. */
  async runNow(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`no interval job named ${name}`);
    await this.runOnce(job);
  }

  get isStarted() {
    return this.started;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const queue of this.queues) queue.start();
    for (const job of this.jobs.values()) this.schedule(job);
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const timer of this.timers.splice(0)) clearTimeout(timer);
    await Promise.all([...this.queues.map((queue) => queue.stop()), ...this.running.values()]);
  }

  private schedule(job: IntervalJob) {
    const next = (delay: number) => {
      const timer = setTimeout(() => {
        const index = this.timers.indexOf(timer);
        if (index !== -1) this.timers.splice(index, 1);
        if (!this.started) return;
        void this.runOnce(job).finally(() => {
          if (this.started) next(job.everyMs);
        });
      }, delay);
      timer.unref();
      this.timers.push(timer);
    };
    next(job.firstAfterMs ?? job.everyMs);
  }

  private runOnce(job: IntervalJob): Promise<void> {
    const current = this.running.get(job.name);
    if (current) return current;
    const run = job
      .run()
      .then(() => undefined)
      .catch((error: unknown) => this.deps.log.warn({ err: error }, `${job.name} failed`))
      .finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
    return run;
  }
}
