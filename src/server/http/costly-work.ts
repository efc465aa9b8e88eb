import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { M, T } from '../../shared/messages.js';
import { HttpError } from '../lib/http-error.js';
import { currentSession } from './authenticate.js';

/** How many costly requests (labels, exports, reports) run and wait; see CostlyWork. */
export interface CostlyWorkBounds {
  /** Running at once in this process. */
  atOnce: number;
  /** Waiting for a turn in this process; beyond, 503. */
  waiting: number;
  /** One user's in progress, running or waiting, on every instance; beyond, 429. */
  perUser: number;
}

export const DEFAULT_COSTLY_WORK: CostlyWorkBounds = { atOnce: 2, waiting: 8, perUser: 4 };

/** What the OpenAPI document says of each route that waits for a turn. */
export const COSTLY_WORK_NOTE =
  "It waits for a turn among the server's costly answers (label PDFs, CSV exports, reports): a few run at once and a few more wait; beyond those, 503, and beyond a few of your own in progress on every instance, 429, both with `Retry-After`.";

/** Seconds a refused request is told to wait: a turn takes seconds. */
const RETRY_AFTER = { 'retry-after': '5' };

/** Counts one user's costly requests in progress where every instance sees them. */
interface UserCounter {
  /** Counts one more unless `max` are in progress; the function it returns gives it back. */
  take(userId: string, max: number): Promise<(() => void) | undefined>;
}

interface Waiter {
  userId: string;
  start: () => void;
}

/**
 * The turns of CPU-heavy answers (label PDFs, CSV exports, reports): a few run at once, a few
 * more wait in the order they came, each user's one at a time in this process so that another
 * user's request goes before a second of theirs. Beyond the waiting places the server is busy
 * (503); beyond a user's own bound, counted over every instance, it is that user's doing (429).
 * Both answers carry Retry-After.
 */
class CostlyWork {
  private readonly runningUsers = new Map<string, number>();
  private running = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly bounds: CostlyWorkBounds,
    private readonly users: UserCounter,
  ) {}

  /**
   * Waits for the user's turn and resolves with the function that ends it, or throws the
   * refusal. A request given up while it waits (`gone` aborts) leaves its place at once.
   */
  async turn(userId: string, gone: AbortSignal): Promise<() => void> {
    if (this.waiters.length >= this.bounds.waiting && !this.canRun(userId)) {
      throw new HttpError(503, M.costlyWorkBusy, RETRY_AFTER);
    }
    const release = await this.users.take(userId, this.bounds.perUser);
    if (!release) throw new HttpError(429, T.costlyWorkPerUser(this.bounds.perUser), RETRY_AFTER);
    // The count above may have taken a moment: the places are looked at again.
    if (this.canRun(userId)) return this.run(userId, release);
    if (this.waiters.length >= this.bounds.waiting) {
      release();
      throw new HttpError(503, M.costlyWorkBusy, RETRY_AFTER);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        userId,
        start: () => {
          gone.removeEventListener('abort', leave);
          resolve(this.run(userId, release));
        },
      };
      const leave = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        release();
        // Nobody reads this answer: the client is gone.
        reject(new HttpError(503, M.costlyWorkBusy, RETRY_AFTER));
      };
      if (gone.aborted) return leave();
      this.waiters.push(waiter);
      gone.addEventListener('abort', leave, { once: true });
    });
  }

  private canRun(userId: string) {
    return this.running < this.bounds.atOnce && !this.runningUsers.has(userId);
  }

  private run(userId: string, release: () => void): () => void {
    this.running += 1;
    this.runningUsers.set(userId, (this.runningUsers.get(userId) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running -= 1;
      const left = this.runningUsers.get(userId)! - 1;
      if (left === 0) this.runningUsers.delete(userId);
      else this.runningUsers.set(userId, left);
      release();
      this.next();
    };
  }

  /** Starts the first waiter whose user has nothing running here, while places are free. */
  private next() {
    while (this.running < this.bounds.atOnce) {
      const index = this.waiters.findIndex((waiter) => !this.runningUsers.has(waiter.userId));
      if (index < 0) return;
      this.waiters.splice(index, 1)[0]!.start();
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The turns of CPU-heavy answers (http/costly-work.ts). */
    costlyWork: CostlyWork;
  }
}

/**
 * A turn for the request's costly work, as a route's preHandler (after the session, the
 * catalogue and the input were checked): held until its answer has been sent or the client is
 * gone, a streamed answer's last byte included.
 */
export const costlyTurn: preHandlerAsyncHookHandler = async function (
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { user } = currentSession(request);
  const gone = new AbortController();
  const onClose = () => gone.abort();
  reply.raw.once('close', onClose);
  const end = await this.costlyWork.turn(user.id, gone.signal);
  reply.raw.off('close', onClose);
  if (reply.raw.destroyed || reply.raw.writableFinished) return end();
  reply.raw.once('close', end);
  reply.raw.once('finish', end);
};

/** The turns, each user's counted in the leases every instance sees (infra/leases). */

export const costlyWorkPlugin = fp<{ bounds: CostlyWorkBounds }>(
  (app, options, done) => {
    const users = {
      take: (userId: string, max: number) => app.userLeases.take('costly-work', userId, max),
    };
    app.decorate('costlyWork', new CostlyWork(options.bounds, users));
    done();
  },
  { name: 'costly-work', dependencies: ['user-leases'] },
);
