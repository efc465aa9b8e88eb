import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/index.js';
import type { Clock } from '../lib/clock.js';
import { createTransport, type MailTransport, type OutgoingMail } from './transport.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

const MAX_ATTEMPTS = 12;
/** How long a worker owns a claimed row; a crashed worker's rows come back after this. */
const LEASE_MS = 60_000;
const POLL_MS = 2_000;

/** 1 s, 2 s, 4 s … capped at 10 minutes: a long SMTP outage costs few attempts. */
export const backoffMs = (attempts: number) =>
  Math.min(1000 * 2 ** Math.max(attempts - 1, 0), 600_000);

/**
 * The transactional outbox (docs/decisions/002-email-outbox.md). `enqueue` writes the mail in the
 * caller's transaction, so a mail exists exactly when the change that needs it committed. The worker
 * claims due rows with a lease, sends, and marks them sent; failures are retried with back-off.
 */
export class Outbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private wakeRequested = false;
  private readonly transport: MailTransport;

  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    config: Config,
    private readonly log: FastifyBaseLogger,
    transport?: MailTransport,
  ) {
    this.transport = transport ?? createTransport(config, log);
  }

  async enqueue(trx: DB, message: MailMessage): Promise<void> {
    const now = this.clock.now();
    await trx
      .insertInto('outbox')
      .values({
        id: randomUUID(),
        recipient: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        sent_at: null,
        last_error: null,
        created_at: now,
      })
      .execute();
  }

  /** Asks the worker to look now instead of at its next poll (call after the transaction commits). */
  wake() {
    if (this.stopped) return;
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 0);
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.wake();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await this.transport.close();
  }

  /** Delivers every due mail once; returns how many were sent. Tests call it directly. */
  async deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const row = await this.claimNext();
      if (!row) return sent;
      if (await this.deliver(row)) sent += 1;
    }
  }

  private tick() {
    this.running = this.deliverDue()
      .then(() => undefined)
      .catch((error: unknown) => this.log.error({ err: error }, 'outbox worker failed'))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        const delay = this.wakeRequested ? 0 : POLL_MS;
        this.wakeRequested = false;
        this.timer = setTimeout(() => this.tick(), delay);
      });
  }

  /**
   * Claims one due row by moving its lease forward; the conditional update makes the claim atomic
   * even with several server processes on one PostgreSQL database.
   */
  private async claimNext() {
    const now = this.clock.now();
    const candidate = await this.db
      .selectFrom('outbox')
      .select('id')
      .where('sent_at', 'is', null)
      .where('attempts', '<', MAX_ATTEMPTS)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .limit(1)
      .executeTakeFirst();
    if (!candidate) return undefined;
    return this.db
      .updateTable('outbox')
      .set({ locked_until: now + LEASE_MS, attempts: (eb) => eb('attempts', '+', 1) })
      .where('id', '=', candidate.id)
      .where('sent_at', 'is', null)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  private async deliver(row: {
    id: string;
    recipient: string;
    subject: string;
    text_body: string;
    html_body: string;
    attempts: number;
  }): Promise<boolean> {
    const mail: OutgoingMail = {
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
    };
    try {
      await this.transport.send(mail);
    } catch (error) {
      const retryAt = this.clock.now() + backoffMs(row.attempts);
      this.log.warn(
        { err: error, mailId: row.id, attempts: row.attempts },
        row.attempts >= MAX_ATTEMPTS
          ? 'mail delivery failed for good'
          : 'mail delivery failed; will retry',
      );
      await this.db
        .updateTable('outbox')
        .set({
          locked_until: null,
          next_attempt_at: retryAt,
          last_error: String(error).slice(0, 500),
        })
        .where('id', '=', row.id)
        .execute();
      return false;
    }
    await this.db
      .updateTable('outbox')
      .set({ sent_at: this.clock.now(), locked_until: null, last_error: null })
      .where('id', '=', row.id)
      .execute();
    return true;
  }
}
