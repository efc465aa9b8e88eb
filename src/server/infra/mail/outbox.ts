import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Selectable } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../db/handle.js';
import type { MailBudget } from '../db/schema-accounts.js';
import type { MailOutcome, MailRequestKind, OutboxTable } from '../db/schema-mail.js';
import type { Clock } from '../../lib/clock.js';
import { budgetPurpose, ClaimLost, type MailRequestPreparer } from './mail-requests.js';
import { createTransport, type MailAttachment, type MailTransport } from './transport.js';
import { backoff, type Job, type TableQueue } from '../runner/queue.js';
import type { Runner } from '../runner/runner.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files it carries: stored with the row, so a retry sends the same bytes. */
  attachments?: MailAttachment[] | undefined;
}

/** How long a mail without a code is retried before it is closed, with an error in the log. */
export const RETRY_FOR_MS = 3 * 24 * 3_600_000;
/** How long a worker owns a claimed row; a crashed worker's rows come back after this. */
const LEASE_MS = 60_000;
const POLL_MS = 2_000;

/** 1 s, 2 s, 4 s … capped at 10 minutes: a long SMTP outage costs few attempts. */
export const backoffMs = backoff.doubling(1000, 600_000);

type OutboxRow = Selectable<OutboxTable>;

/** Mails a process sends at once; rows of one recipient go one at a time, in order. */
const CONCURRENCY = 4;

/**
 * The transactional outbox (docs/decisions/002-email-outbox.md). `enqueue` writes a rendered mail
 * (a notice, never a code) in the caller's transaction, so it exists exactly when the change that
 * needs it committed; `request` writes a request that the worker turns into a mail at send time
 * (by the preparer the accounts feature gives it). The rows are a queue of the background runner:
 * claimed with a lease, sent, and closed with the body wiped; failures are retried with capped
 * back-off while the mail is still worth sending (a code mail until its code expires, others for
 * 3 days), then closed with an error.
 */
export class Outbox {
  private readonly queue: TableQueue<OutboxRow>;
  private readonly transport: MailTransport;
  private preparer: MailRequestPreparer | undefined;

  constructor(
    private readonly db: DB,
    private readonly clock: Clock,
    config: Config,
    private readonly log: FastifyBaseLogger,
    runner: Runner,
    transport?: MailTransport,
  ) {
    this.transport = transport ?? createTransport(config, log);
    this.queue = runner.queue<OutboxRow>({
      name: 'mail outbox',
      table: 'outbox',
      open: { column: 'closed_at', value: null },
      // Fair between recipients; one at a time each keeps a person's mails in order.
      tenant: { column: 'recipient', perTenant: 1 },
      concurrency: CONCURRENCY,
      leaseMs: LEASE_MS,
      pollMs: POLL_MS,
      handle: (job) => this.deliver(job),
    });
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
    const attachments = body.attachments ?? [];
    if (attachments.length > 0) {
      await db
        .insertInto('outbox_attachments')
        .values(
          attachments.map((file, position) => ({
            outbox_id: id,
            position,
            filename: file.filename,
            content_type: file.contentType,
            content: file.content,
          })),
        )
        .execute();
    }
    return id;
  }

  /** Asks the worker to look now instead of at its next poll (call after the transaction commits). */
  wake() {
    this.queue.wake();
  }

  /** Stops the worker (mails in flight finish first), then the transport. */
  async stop() {
    await this.queue.stop();
    await this.transport.close();
  }

  /** Handles every due row once, requests included; returns how many mails went. Tests call it. */
  deliverDue(): Promise<number> {
    return this.queue.drain();
  }

  private async deliver(job: Job<OutboxRow>): Promise<boolean> {
    const { row } = job;
    let mail: MailMessage;
    let retryUntil = row.created_at + RETRY_FOR_MS;
    let withCode = false;
    if (row.kind === 'notice') {
      mail = {
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        attachments: await this.attachmentsOf(row.id),
      };
    } else {
      let prepared;
      try {
        if (!this.preparer) throw new Error('no preparer of mail requests was given');
        prepared = await this.preparer.prepare({ ...row, kind: row.kind });
      } catch (error) {
        if (error instanceof ClaimLost) return false;
        await this.failed(job, error, retryUntil, false);
        return false;
      }
      if ('outcome' in prepared) {
        this.log.debug({ mailId: row.id, outcome: prepared.outcome }, 'mail request closed unsent');
        await this.close(job, prepared.outcome);
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
      await this.failed(job, error, retryUntil, withCode);
      return false;
    }
    await this.close(job, 'sent', mail.subject);
    return true;
  }

  /** The files a queued mail carries, in their order; none for most. */
  private async attachmentsOf(id: string): Promise<MailAttachment[]> {
    const rows = await this.db
      .selectFrom('outbox_attachments')
      .select(['filename', 'content_type', 'content'])
      .where('outbox_id', '=', id)
      .orderBy('position')
      .execute();
    return rows.map((file) => ({
      filename: file.filename,
      contentType: file.content_type,
      content: Buffer.from(file.content),
    }));
  }

  /** Schedules the next try with back-off, or closes the row when that would be too late. */
  private async failed(job: Job<OutboxRow>, error: unknown, retryUntil: number, withCode: boolean) {
    const { row } = job;
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
      await this.close(job, withCode ? 'expired' : 'failed', undefined, lastError);
      return;
    }
    this.log.warn(context, 'mail delivery failed; will retry');
    await job.retryAt(retryAt, { last_error: lastError });
  }

  /** Closes the row for good; its body goes, so no sent or dropped row keeps what it said. */
  private async close(
    job: Job<OutboxRow>,
    outcome: MailOutcome,
    subject?: string,
    lastError?: string,
  ) {
    const now = this.clock.now();
    await job.finish({
      closed_at: now,
      outcome,
      sent_at: outcome === 'sent' ? now : null,
      ...(subject === undefined ? {} : { subject }),
      text_body: '',
      html_body: '',
      last_error: lastError ?? null,
    });
    // The files go with the body: no closed row keeps what it said.
    await this.db.deleteFrom('outbox_attachments').where('outbox_id', '=', job.row.id).execute();
  }
}
