import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql, type Selectable } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { OutboxTable } from '../../../../src/server/infra/db/schema-mail.js';
import { runnerPlugin } from '../../../../src/server/infra/runner/plugin.js';
import {
  backoff,
  type Job,
  type QueueDefinition,
} from '../../../../src/server/infra/runner/queue.js';
import { Runner } from '../../../../src/server/infra/runner/runner.js';
import { buildPlugins } from '../../support/build.js';

// The runner on its own: the settings, the database and the runner's plugin, nothing else. Its
// queues here run over the outbox table (a queue table like any other), its recipient the tenant.

type Row = Selectable<OutboxTable>;

/** A promise and the function that settles it: a job that finishes when the test says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A mail of the outbox, a job of `recipient`, due at 0 and created at 0. */
const jobRow = (id: string, recipient: string) => ({
  id,
  recipient,
  kind: 'notice' as const,
  purpose: null,
  subject: recipient,
  text_body: '',
  html_body: '',
  attempts: 0,
  next_attempt_at: 0,
  locked_until: null,
  counted_at: null,
  code_id: null,
  sent_at: null,
  closed_at: null,
  outcome: null,
  last_error: null,
  created_at: 0,
});

async function withRunner() {
  const { app, database, clock } = await buildPlugins(async (instance: FastifyInstance) => {
    await instance.register(runnerPlugin, { start: false });
  });
  const insert = async (recipient: string, dueIn = 0) => {
    const id = randomUUID();
    await database.db
      .insertInto('outbox')
      .values({
        ...jobRow(id, recipient),
        next_attempt_at: clock.now() + dueIn,
        created_at: clock.now(),
      })
      .execute();
    return id;
  };
  const row = (id: string) =>
    database.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const definition = (
    handle: QueueDefinition<Row>['handle'],
    overrides: Partial<QueueDefinition<Row>> = {},
  ): QueueDefinition<Row> => ({
    name: `test queue ${randomUUID()}`,
    table: 'outbox',
    open: { column: 'closed_at', value: null },
    tenant: { column: 'recipient', perTenant: 2 },
    concurrency: 3,
    leaseMs: 60_000,
    pollMs: 50,
    handle,
    ...overrides,
  });
  /** Another process's runner on the same database. */
  const otherRunner = () =>
    new Runner({ db: database.db as never, dialect: database.dialect, clock, log: app.log });
  const finish = (job: Job<Row>) => job.finish({ closed_at: clock.now(), outcome: 'sent' });
  return { app, database, clock, insert, row, definition, otherRunner, finish };
}

describe('a queue of the runner', async () => {
  const t = await withRunner();

  it('claims each due job once, also with two runners at once, and counts what the handler counts', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => t.insert(`r${i % 4}`)));
    const seen: string[] = [];
    const handle = async (job: Job<Row>) => {
      seen.push(job.row.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await t.finish(job);
      return job.row.subject !== 'r0';
    };
    const one = t.app.runner.queue(t.definition(handle));
    const two = t.otherRunner().queue(t.definition(handle));
    const counts = await Promise.all([one.drain(), two.drain(), one.drain()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(9);
    expect(seen.toSorted()).toEqual(ids.toSorted());
    for (const id of ids)
      expect(await t.row(id)).toMatchObject({ attempts: 1, locked_until: null });
  });

  it('leaves a job unsettled by its handler leased until the lease ends, then claims it again', async () => {
    const id = await t.insert('lease');
    let calls = 0;
    const queue = t.app.runner.queue(
      t.definition(async (job) => {
        calls += 1;
        if (calls > 1) await t.finish(job);
        return true;
      }),
    );
    expect(await queue.drain()).toBe(1);
    expect(await t.row(id)).toMatchObject({ attempts: 1, locked_until: t.clock.now() + 60_000 });
    expect(await queue.drain()).toBe(0);
    t.clock.advance(60_000);
    expect(await queue.drain()).toBe(1);
    expect(await t.row(id)).toMatchObject({ attempts: 2, outcome: 'sent', locked_until: null });
  });

  it('retries when the handler says, and a claim that was taken over can no longer settle', async () => {
    const id = await t.insert('retry');
    const later = backoff.doubling(1000, 4000);
    expect([1, 2, 3, 4, 5].map(later)).toEqual([1000, 2000, 4000, 4000, 4000]);
    const stale: Job<Row>[] = [];
    const queue = t.app.runner.queue(
      t.definition(async (job) => {
        stale.push(job);
        await job.retryAt(t.clock.now() + later(job.row.attempts), { last_error: 'down' });
        return false;
      }),
    );
    await queue.drain();
    expect(await t.row(id)).toMatchObject({
      attempts: 1,
      next_attempt_at: t.clock.now() + 1000,
      last_error: 'down',
    });
    expect(await queue.drain()).toBe(0);
    t.clock.advance(1000);
    await queue.drain();
    expect(await t.row(id)).toMatchObject({ attempts: 2, next_attempt_at: t.clock.now() + 2000 });
    // The first claim's job is stale: settling it changes nothing.
    await t.finish(stale[0]!);
    expect(await t.row(id)).toMatchObject({ attempts: 2, closed_at: null });
  });
});

describe('fairness between tenants', async () => {
  const t = await withRunner();

  it('runs a tenant with nothing in flight first, and holds each tenant within its bound', async () => {
    const older = [await t.insert('a'), await t.insert('a'), await t.insert('a')];
    t.clock.advance(10);
    const newer = await t.insert('b');
    const gates = new Map<string, ReturnType<typeof gate>>();
    const order: string[] = [];
    let inFlightOfA = 0;
    let mostOfA = 0;
    const queue = t.app.runner.queue(
      t.definition(async (job) => {
        order.push(job.row.id);
        const isA = job.row.recipient === 'a';
        if (isA) mostOfA = Math.max(mostOfA, (inFlightOfA += 1));
        const door = gate();
        gates.set(job.row.id, door);
        await door.opened;
        if (isA) inFlightOfA -= 1;
        await t.finish(job);
        return true;
      }),
    );
    const drained = queue.drain();
    await expect.poll(() => order.length).toBe(3);
    // The oldest job, then the other tenant's (newer, but its tenant was idle), then a's second.
    expect(order).toEqual([older[0], newer, older[1]]);
    gates.get(older[0]!)!.open();
    await expect.poll(() => order.length).toBe(4);
    expect(order[3]).toBe(older[2]);
    for (const door of gates.values()) door.open();
    expect(await drained).toBe(4);
    expect(mostOfA).toBe(2);
  });

  it("claims another tenant's job without reading a busy tenant's backlog", async () => {
    // A backlog of due jobs of one tenant at its bound (two leased), earlier than any other's.
    const due = t.clock.now() - 1_000;
    const addBacklog = async (count: number) => {
      for (let i = 0; i < count; i += 500) {
        const ids = Array.from({ length: Math.min(500, count - i) }, () => randomUUID());
        await t.database.db
          .insertInto('outbox')
          .values(ids.map((id) => ({ ...jobRow(id, 'backlog'), next_attempt_at: due })))
          .execute();
      }
    };
    await addBacklog(500);
    await t.database.db
      .updateTable('outbox')
      .set({ locked_until: t.clock.now() + 60_000 })
      .where('recipient', '=', 'backlog')
      .where('id', 'in', (eb) =>
        eb.selectFrom('outbox').select('id').where('recipient', '=', 'backlog').limit(2),
      )
      .execute();
    const handled: string[] = [];
    const queue = t.app.runner.queue(
      t.definition(async (job) => {
        handled.push(job.row.recipient);
        await t.finish(job);
        return true;
      }),
    );
    /** How long a drain takes that finds the other tenant's one job. */
    const drainOne = async () => {
      await t.insert('other');
      const started = performance.now();
      expect(await queue.drain()).toBe(1);
      return performance.now() - started;
    };
    await drainOne();
    const small = Math.min(await drainOne(), await drainOne());
    await addBacklog(99_500);
    // As PostgreSQL's autovacuum would once the backlog grew (the test servers run without it).
    if (t.database.dialect === 'postgres') await sql`analyze outbox`.execute(t.database.db);
    const large = Math.min(await drainOne(), await drainOne());
    console.log(`a drain beside 500 jobs ${small.toFixed(1)} ms, 100,000 ${large.toFixed(1)} ms`);
    expect(handled).toEqual(['other', 'other', 'other', 'other', 'other']);
    // Read tenant by tenant, not job by job: the backlog's size does not count.
    expect(large).toBeLessThan(3 * small + 20);
    await t.database.db
      .updateTable('outbox')
      .set({ closed_at: t.clock.now(), locked_until: null })
      .where('recipient', '=', 'backlog')
      .execute();
  }, 120_000);

  it('counts the leases of every runner: a tenant at its bound elsewhere waits here', async () => {
    const ids = [await t.insert('c'), await t.insert('c'), await t.insert('c')];
    const door = gate();
    const held: string[] = [];
    const elsewhere = t.otherRunner().queue(
      t.definition(async (job) => {
        held.push(job.row.id);
        await door.opened;
        await t.finish(job);
        return true;
      }),
    );
    const busy = elsewhere.drain();
    await expect.poll(() => held.length).toBe(2);
    const here = t.app.runner.queue(t.definition(async (job) => (await t.finish(job), true)));
    expect(await here.drain()).toBe(0);
    door.open();
    expect(await busy).toBe(3);
    expect(held.toSorted()).toEqual(ids.toSorted());
  });
});

describe('the runner started and stopped', async () => {
  const t = await withRunner();

  it('claims a job as soon as it is woken, polls otherwise, and stops claiming once stopped', async () => {
    const runner = t.otherRunner();
    const handled: string[] = [];
    const door = gate();
    const queue = runner.queue(
      t.definition(
        async (job, signal) => {
          handled.push(job.row.id);
          if (job.row.subject === 'slow') {
            await Promise.race([
              door.opened,
              new Promise((r) => signal.addEventListener('abort', r)),
            ]);
            if (signal.aborted) {
              await job.release();
              return false;
            }
          }
          await t.finish(job);
          return true;
        },
        { pollMs: 60_000 },
      ),
    );
    runner.start();
    const woken = await t.insert('woken');
    queue.wake();
    await expect.poll(() => handled).toEqual([woken]);

    const slow = await t.insert('slow');
    queue.wake();
    await expect.poll(() => handled).toContain(slow);
    // Stopping aborts what is in flight; the job is given back, due now, for another instance.
    await runner.stop();
    expect(await t.row(slow)).toMatchObject({
      attempts: 1,
      locked_until: null,
      closed_at: null,
      next_attempt_at: t.clock.now(),
    });
    const after = await t.insert('after');
    queue.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(handled).not.toContain(after);
  });

  it('runs interval jobs on their period, never twice at once, and no more once stopped', async () => {
    const runner = t.otherRunner();
    let runs = 0;
    let running = 0;
    let overlapped = false;
    runner.every({
      name: 'counting',
      everyMs: 20,
      firstAfterMs: 0,
      run: async () => {
        if ((running += 1) > 1) overlapped = true;
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 30));
        running -= 1;
        if (runs === 2) throw new Error('one failure does not stop the job');
      },
    });
    expect(() => runner.every({ name: 'counting', everyMs: 1, run: async () => {} })).toThrow();
    runner.start();
    await expect.poll(() => runs, { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    await Promise.all([runner.runNow('counting'), runner.runNow('counting')]);
    await runner.stop();
    const stoppedAt = runs;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(runs).toBe(stoppedAt);
    expect(overlapped).toBe(false);
  });

  it('starts with the app when asked, and stops when it closes', async () => {
    const { app } = await buildPlugins(async (instance) => {
      await instance.register(runnerPlugin, { start: true });
    });
    expect(app.runner.isStarted).toBe(true);
    await app.close();
    expect(app.runner.isStarted).toBe(false);
    expect(t.app.runner.isStarted).toBe(false);
  });
});
