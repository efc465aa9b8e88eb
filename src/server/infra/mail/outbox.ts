import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Selectable } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../db/handle.js';
import type { MailBudget, MailOutcome, MailRequestKind, OutboxTable } from '../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { budgetPurpose, ClaimLost, type MailRequestPreparer } from './mail-requests.js';
import { createTransport, type MailTransport } from './transport.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** How long a mail without a code is retried before it is closed, with an error in the log. */
export const RETRY_FOR_MS = 3 * 24 * 3_600_000;
/** How long a worker owns a claimed row; a crashed worker's rows come back after this. */
const LEASE_MS = 60_000;
const POLL_MS = 2_000;

/** 1 s, 2 s, 4 s … capped at 10 minutes: a long SMTP outage costs few attempts. */
export const backoffMs = (attempts: number) =>
  Math.min(1000 * 2 ** Math.max(attempts - 1, 0), 600_000);

type OutboxRow = Selectable<OutboxTable>;

/**
 * The transactional outbox (docs/decisions/002-email-outbox.md). `enqueue` writes a rendered mail
 * (a notice, never a code) in the caller's transaction, so it exists exactly when the change that
 * needs it committed; `request` writes a request that the worker turns into a mail at send time
 * (by the preparer the accounts feature gives it). The worker claims due rows with a lease, sends, and closes
 * them, wiping the body; failures are retried with capped back-off while the mail is still worth
 * sending (a code mail until its code expires, others for 3 days), then closed with an error.
 */
export class Outbox {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private wakeRequested = false;
  private readonly transport: MailTransport;
  private preparer: MailRequestPreparer | undefined;

  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    config: Config,
    private readonly log: FastifyBaseLogger,
    transport?: MailTransport,
  ) {
    this.transport = transport ?? createTransport(config, log);
  }

  /** What turns requests into mails; until it is given, requests wait (and are retried). */
  prepareRequestsWith(preparer: MailRequestPreparer) {
    this.preparer = preparer;
  }

  async enqueue(trx: DB, message: MailMessage): Promise<void> {
    await this.insert(trx, message.to, 'notice', message);
  }

  /**
   * A rendered notice counted in its address's mail budget `budget` as it is queued: the caller
   * found room in that budget in the same transaction (under a lock of the address).
   */
  async enqueueCounted(trx: DB, message: MailMessage, budget: MailBudget): Promise<void> {
    await this.insert(trx, message.to, 'notice', message, null, budget);
  }

  /**
   * Asks for a code mail (or for 'signup', the mail that fits the account) to `recipient`; for an
   * 'email-code', `userId` names the account that asked to move to that address. One row
   * whoever the address belongs to, so the request's work does not tell whether it has an account;
   * the worker decides, counts the address's budget and issues the code (the preparer).
   */
  async request(
    db: DB,
    recipient: string,
    kind: MailRequestKind,
    userId: string | null = null,
  ): Promise<string> {
    return this.insert(db, recipient, kind, { subject: '', text: '', html: '' }, userId);
  }

  private async insert(
    db: DB,
    recipient: string,
    kind: OutboxRow['kind'],
    body: Omit<MailMessage, 'to'>,
    userId: string | null = null,
    countedIn: MailBudget | null = null,
  ): Promise<string> {
    const now = this.clock.now();
    const id = randomUUID();
    await db
      .insertInto('outbox')
      .values({
        id,
        recipient,
        kind,
        purpose: kind === 'notice' ? countedIn : budgetPurpose(kind),
        subject: body.subject,
        text_body: body.text,
        html_body: body.html,
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        counted_at: countedIn === null ? null : now,
        code_id: null,
        user_id: userId,
        sent_at: null,
        closed_at: null,
        outcome: null,
        last_error: null,
        created_at: now,
      })
      .execute();
    return id;
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

  /** Handles every due row once, requests included; returns how many mails went. Tests call it. */
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
   * even with several server processes on one database. The attempt count it bumps also tells
   * this claim from a later one: every write after it requires the count to be unchanged.
   */
  private async claimNext(): Promise<OutboxRow | undefined> {
    const now = this.clock.now();
    const candidate = await this.db
      .selectFrom('outbox')
      .select('id')
      .where('closed_at', 'is', null)
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
      .where('closed_at', 'is', null)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  private async deliver(row: OutboxRow): Promise<boolean> {
    let mail: MailMessage;
    let retryUntil = row.created_at + RETRY_FOR_MS;
    let withCode = false;
    if (row.kind === 'notice') {
      mail = { to: row.recipient, subject: row.subject, text: row.text_body, html: row.html_body };
    } else {
      let prepared;
      try {
        if (!this.preparer) throw new Error('no preparer of mail requests was given');
        prepared = await this.preparer.prepare({ ...row, kind: row.kind });
      } catch (error) {
        if (error instanceof ClaimLost) return false;
        await this.failed(row, error, retryUntil, false);
        return false;
      }
      if ('outcome' in prepared) {
        this.log.debug({ mailId: row.id, outcome: prepared.outcome }, 'mail request closed unsent');
        await this.close(row, prepared.outcome);
        return false;
      }
      mail = prepared.mail;
      if (prepared.codeExpiresAt !== undefined) {
        retryUntil = prepared.codeExpiresAt;
        withCode = true;
      }
    }
    try {
      await this.transport.send({ id: row.id, ...mail });
    } catch (error) {
      await this.failed(row, error, retryUntil, withCode);
      return false;
    }
    await this.close(row, 'sent', mail.subject);
    return true;
  }

  /** Schedules the next try with back-off, or closes the row when that would be too late. */
  private async failed(row: OutboxRow, error: unknown, retryUntil: number, withCode: boolean) {
    const lastError = String(error).slice(0, 500);
    const retryAt = this.clock.now() + backoffMs(row.attempts);
    const context = { err: error, mailId: row.id, kind: row.kind, attempts: row.attempts };
    if (retryAt >= retryUntil) {
      this.log.error(
        context,
        withCode
          ? 'mail delivery failed until its code expired; it will not be sent'
          : 'mail delivery failed for 3 days; it will not be sent',
      );
      await this.close(row, withCode ? 'expired' : 'failed', undefined, lastError);
      return;
    }
    this.log.warn(context, 'mail delivery failed; will retry');
    await this.db
      .updateTable('outbox')
      .set({ locked_until: null, next_attempt_at: retryAt, last_error: lastError })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .execute();
  }

  /** Closes the row for good; its body goes, so no sent or dropped row keeps what it said. */
  private async close(row: OutboxRow, outcome: MailOutcome, subject?: string, lastError?: string) {
    const now = this.clock.now();
    await this.db
      .updateTable('outbox')
      .set({
        closed_at: now,
        outcome,
        sent_at: outcome === 'sent' ? now : null,
        locked_until: null,
        ...(subject === undefined ? {} : { subject }),
        text_body: '',
        html_body: '',
        last_error: lastError ?? null,
      })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .execute();
  }
}
