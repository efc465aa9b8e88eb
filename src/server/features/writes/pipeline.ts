import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActivityKind, ActivitySource } from '../../../shared/activity.js';
import type { LiveEventData, LiveEventKind } from '../../../shared/schemas/live-events.js';
import type { DB } from '../../infra/db/handle.js';
import type { MigrationDialect } from '../../infra/db/migrate.js';
import { currentSession } from '../../http/authenticate.js';
import type { ActivityDetails } from '../activity/index.js';
import { currentCatalogue } from '../catalogues/index.js';
import { idempotently, sendAnswer, type Answer, type RecordAnswer } from '../idempotency/index.js';
import { recordLiveEvent } from '../live-events/index.js';

/**
 * One catalogue's write while its transaction is open: what the data-access functions of a write
 * take (products', and those of any feature that changes a catalogue).
 */
export interface CatalogueWrite {
  trx: DB;
  catalogueId: string;
  /** Who writes (null for tools and tests): the rows' `created_by`/`updated_by`, the entries'. */
  actorId: string | null;
  dialect: MigrationDialect;
  /** One instant for the whole write, taken when the request began. */
  now: number;
}

/** A live event of a catalogue, kind and data. */
export type LiveEvent = {
  [K in LiveEventKind]: { kind: K; data: Omit<LiveEventData<K>, 'catalogueId'> };
}[LiveEventKind];

/** What a write did, as the pipeline records it before the commit. */
export interface WriteOutcome<A extends Answer = Answer> {
  /** The HTTP answer: given to the caller, and stored under its Idempotency-Key. */
  answer: A;
  /**
   * Nothing changed (a refusal, such as a stock that would go below 0): the version stays, and
   * only the answer is recorded.
   */
  unchanged?: boolean;
  /**
   * The write changed nothing a cached read of the catalogue shows (a count's line): the version
   * stays, everything else is recorded.
   */
  keepsVersion?: boolean;
  /** What changed, for the catalogue's live streams. */
  live?: LiveEvent;
  /** The activity entry (and through it the webhooks listening to its kind). */
  activity?: { kind: ActivityKind; details: ActivityDetails; source?: ActivitySource };
  /** Runs once the transaction committed (files no row refers to any more go). */
  afterCommit?: () => Promise<void>;
}

/** Work done before the transaction opens (an image decoded and stored), undone if it fails. */
export interface Stage<S> {
  /** Given the write's instant (what new rows are stamped with). */
  prepare(now: number): Promise<S>;
  discard(staged: S): Promise<void>;
}

/** The catalogue written to, and who writes. `confirm` re-checks the membership in the write. */
export interface WriteTarget {
  id: string;
  actorId: string | null;
  source?: ActivitySource;
  confirm?(trx: DB): Promise<void>;
}

/**
 * Every write to a catalogue bumps its version in the same transaction, so a page cached under the
 * old version can never be served after the write commits, on any server process. The update also
 * locks the catalogue's row until the commit: one catalogue's writes that record live events
 * commit one after the other, in the order of their events' ids.
 */
export async function bumpCatalogueVersion(trx: DB, catalogueId: string) {
  await trx
    .updateTable('catalogues')
    .set({ version: (eb) => eb('version', '+', 1) })
    .where('id', '=', catalogueId)
    .execute();
}

/**
 * Locks the catalogue's row before anything of it changes (PostgreSQL; SQLite writes one at a
 * time). Triggers update the catalogue's totals with each statement that changes its products
 * (migration 032): without this, a write holding the totals and one holding a product the first
 * goes on to change would wait for each other. Settings and memberships take this row after the
 * members' lock too, so the order is the same everywhere.
 */
async function lockCatalogue(trx: DB, catalogueId: string) {
  await trx
    .selectFrom('catalogues')
    .select('id')
    .where('id', '=', catalogueId)
    .forNoKeyUpdate()
    .execute();
}

/**
 * The write pipeline without HTTP (the request's pipeline below, tools, tests): one transaction
 * that re-checks the membership, runs `write`, and unless it changed nothing bumps the catalogue's
 * version, then records the answer (under an Idempotency-Key), the live event and the activity
 * entry with its webhooks: each exists exactly when the change committed. Tools that record no
 * activity (a benchmark's bulk load) pass no `activity` recorder.
 */
export async function writeCatalogue<A extends Answer>(
  ...args: WriteArgs<A>
): Promise<WriteOutcome<A>> {
  const outcome = await commitWrite(...args);
  await outcome.afterCommit?.();
  return outcome;
}

type WriteDatabase = { db: DB; dialect: MigrationDialect; activity?: RecordActivity };

/** What `writeCatalogue` takes, and `commitWrite`, its part up to the commit. */
type WriteArgs<A extends Answer> = [
  database: WriteDatabase,
  target: WriteTarget,
  now: number,
  write: (w: CatalogueWrite) => Promise<WriteOutcome<A>>,
  recordAnswer?: RecordAnswer,
];

/** `writeCatalogue` up to its commit: what runs after it is the caller's. */
async function commitWrite<A extends Answer>(
  ...[database, target, now, write, recordAnswer]: WriteArgs<A>
): Promise<WriteOutcome<A>> {
  const { db, dialect } = database;
  const activity: RecordActivity = async (...args) => {
    if (!database.activity) throw new Error('This write records activity: pass its recorder');
    return database.activity(...args);
  };
  const scope = { id: target.id, actorId: target.actorId, source: target.source ?? 'api' };
  return db.transaction().execute(async (trx) => {
    await target.confirm?.(trx);
    if (dialect === 'postgres') await lockCatalogue(trx, target.id);
    const w: CatalogueWrite = {
      trx,
      catalogueId: target.id,
      actorId: target.actorId,
      dialect,
      now,
    };
    const done = await write(w);
    if (!done.unchanged && !done.keepsVersion) await bumpCatalogueVersion(trx, target.id);
    await recordAnswer?.(trx, done.answer);
    if (done.live) await recordLiveEvent(trx, target.id, done.live.kind, done.live.data, now);
    if (done.activity) {
      const { kind, details, source } = done.activity;
      await activity(trx, { ...scope, source: source ?? scope.source }, kind, details, now);
    }
    return done;
  });
}

/** The activity log's recorder (features/activity), as the app decorates it. */
type RecordActivity = FastifyRequest['server']['activity']['record'];

/** How a request's write is stored under its Idempotency-Key (see catalogueWrite). */
interface Keyed {
  /** What identifies the request besides its route and user (params, body): then it is keyed. */
  idempotency?: unknown;
  /** Or the recorder keyedRequest gave, for a write keyed before its work began. */
  recordAnswer?: RecordAnswer;
}

/**
 * A request's write to its catalogue, in one call: the answer stored under the request's
 * Idempotency-Key is given again (when `idempotency` names what identifies the request: params,
 * body); otherwise `stage` runs outside the transaction, then `writeCatalogue` with the request's
 * catalogue, its caller and its membership check. Returns the answer, first or given again.
 */
export async function catalogueWrite<A extends Answer, S = undefined>(
  http: { request: FastifyRequest; reply: FastifyReply },
  options: Keyed & { stage?: Stage<S> },
  write: (w: CatalogueWrite, staged: S) => Promise<WriteOutcome<A>>,
): Promise<A> {
  const { request } = http;
  const app = request.server;
  const catalogue = currentCatalogue(request);
  const now = app.clock.now();
  const database = { db: app.db, dialect: app.database.dialect, activity: app.activity.record };
  const run = async (record?: RecordAnswer): Promise<A> => {
    const staged = (await options.stage?.prepare(now)) as S;
    let done: WriteOutcome<A>;
    try {
      done = await commitWrite(database, catalogue, now, (w) => write(w, staged), record);
    } catch (error) {
      if (options.stage) await options.stage.discard(staged);
      throw error;
    }
    // Committed: what was staged is the write's now, whatever fails after (an import's products).
    await done.afterCommit?.();
    return done.answer;
  };
  if (options.idempotency === undefined) return run(options.recordAnswer);
  return underKey(http, now, options.idempotency, run);
}

/** `run` under the request's Idempotency-Key, if it has one (features/idempotency). */
async function underKey<A extends Answer>(
  { request, reply }: { request: FastifyRequest; reply: FastifyReply },
  now: number,
  identity: unknown,
  run: (record: RecordAnswer) => Promise<A>,
): Promise<A> {
  const ownerId = currentSession(request).user.id;
  const guarded = { request, reply, ownerId, now };
  return (await idempotently(request.server.idempotency, guarded, identity, run)) as A;
}

/**
 * A request keyed before its work begins, for a write whose work before its transaction would go
 * otherwise when repeated (an import's plan: the products it created would now match its rows):
 * the answer stored under its Idempotency-Key is given again before `run` starts. Else `run`
 * works, and gives `record` to catalogueWrite (`recordAnswer`), which stores its answer in the
 * write's transaction; an answer `run` returns without writing (a refusal) is not stored.
 * `identity` is what identifies the request besides its route and user (query, a file's digest).
 */
export const keyedRequest = <A extends Answer>(
  http: { request: FastifyRequest; reply: FastifyReply },
  identity: unknown,
  run: (record: RecordAnswer) => Promise<A>,
): Promise<A> => underKey(http, http.request.server.clock.now(), identity, run);

/** A route's write, answered: `catalogueWrite`, then its answer sent, first or given again. */
export async function sendCatalogueWrite<A extends Answer, S = undefined>(
  http: { request: FastifyRequest; reply: FastifyReply },
  options: { idempotency?: unknown; stage?: Stage<S> },
  write: (w: CatalogueWrite, staged: S) => Promise<WriteOutcome<A>>,
) {
  return sendAnswer(http.reply, await catalogueWrite(http, options, write));
}
