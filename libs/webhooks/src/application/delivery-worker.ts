import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import { RunPartnerCommand } from '../../../partners/src';
import { Clock, SystemClock } from '../../../platform/src/clock/clock';
import type { AppConfig } from '../../../platform/src/config/config';
import { APP_CONFIG } from '../../../platform/src/config/config.token';
import { idFor, systemMetadata } from '../../../platform/src/http/request-metadata';
import { LOGGER } from '../../../platform/src/logging/logger.token';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { PeriodicTask } from '../../../platform/src/scheduling/periodic-task';
import { Alarm, AppendListener } from '../../../projections/src';
import { endedWithoutSuccess, nextStep } from '../domain/delivery-rules';
import { signingSecrets } from '../domain/webhook-endpoint';
import {
  DeliveryQueue,
  EVENT_RETENTION_DAYS,
  WEBHOOK_DELIVERIES_CHANNEL,
  countsTowardsHealth,
  type AttemptRecord,
  type ClaimedDelivery,
  type EndpointFailureRun,
} from './delivery-queue';
import { RunWebhookEndpointCommand } from './webhook-endpoint-commands';
import { primaryEndpointIdFor } from './webhook-ids';
import { DeliveryHandoff, type HandedDelivery } from './delivery-handoff';
import { WebhookSecrets, signatureHeader } from './webhook-secrets';
import type { AttemptSender } from './webhook-sender';

/** The DI token of the sender: the sending thread (sender-thread.ts) unless a module provides another. */
export const WEBHOOK_SENDER = Symbol('WebhookSender');

export const WEBHOOK_DELIVERY_ACTOR = 'system:webhook-delivery';

/** Attempts in flight per process, and the most one claim takes. */
export const MAX_IN_FLIGHT = 128;
const CLAIM_BATCH = 100;
/** Longest sleep without a NOTIFY: a retry that falls due (or a sandbox clock moved) waits at most this. */
const POLL_INTERVAL_MS = 500;
/**
 * A wake-up waits this long before it claims, so that the deliveries of the events committed
 * meanwhile are claimed (and later recorded) together: at a steady trickle of events, one claim
 * and one record per several deliveries instead of per one. Not applied while a backlog drains.
 */
const GATHER_MS = 10;
/**
 * Attempt outcomes are written in batches: after this many, or this long after the first. Each
 * write is a transaction of its own (about 1 ms of PostgreSQL under SALE load); 100 ms gathers the
 * outcomes of several claims into one, at the price of an attempt showing in the deliveries list
 * up to 100 ms after it was made (and, after a crash, up to 100 ms of attempts made again).
 */
const FLUSH_SIZE = 100;
const FLUSH_AFTER_MS = 100;
const HOUSEKEEPING_INTERVAL_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

type Pending = { record: AttemptRecord; claim: ClaimedDelivery };

/**
 * The delivery worker, one per process (docs/webhooks.md, "How delivery works"). The deliveries
 * this process's `webhooks` projector creates come to it directly, already leased
 * ({@link DeliveryHandoff}), and are sent at once. For the rest (retries, replays, deliveries
 * another process created, leases run out) it sleeps until the projector NOTIFYs new work, or
 * 500 ms (a retry falls due between), then:
 * 1. applies queued changes of the partners' primary endpoints (`webhook_url`);
 * 2. claims due deliveries of ENABLED endpoints (row leases, `FOR UPDATE SKIP LOCKED`) up to
 *    {@link MAX_IN_FLIGHT} attempts in flight, signs each with the endpoint's secrets (Standard
 *    Webhooks; the timestamp is wall-clock time, which receivers check theirs against) and sends
 *    it without waiting for the others;
 * 3. writes each attempt and the delivery's next state (rules 1–7, `nextStep`) in batches, counts
 *    consecutive failed deliveries per endpoint and suspends an endpoint at the threshold.
 * A lease lasts the timeout plus 5 s: a process killed mid-attempt leaves deliveries that are
 * claimed again when it runs out (at least once). Every minute it also suspends what a crash left
 * unsuspended and prunes envelopes past 30 days.
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly queue: DeliveryQueue;
  private readonly alarm = new Alarm();
  private readonly wallClock = new SystemClock();
  private readonly stopSignal = new AbortController();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly abandoned: ClaimedDelivery[] = [];
  private readonly housekeeping: PeriodicTask<void>;
  private readonly reportedPartners = new Set<string>();
  private readonly leaseSeconds: number;
  private listener: AppendListener | null = null;
  private loop: Promise<void> | null = null;
  private pending: Pending[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private intentsWanted = true;
  private backlog = false;
  private stopping = false;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly secrets: WebhookSecrets,
    private readonly commands: CommandBus,
    @Inject(WEBHOOK_SENDER) private readonly sender: AttemptSender,
    private readonly handoff: DeliveryHandoff,
  ) {
    this.queue = new DeliveryQueue(pool);
    // Every attempt in flight listens for the stop.
    setMaxListeners(0, this.stopSignal.signal);
    this.leaseSeconds = Math.ceil(config.webhookTimeoutMs / 1000) + 5;
    this.housekeeping = new PeriodicTask(
      () => this.keepHouse(),
      HOUSEKEEPING_INTERVAL_MS,
      (err: unknown) => this.logger.warn({ err }, 'webhook housekeeping failed'),
      // One pass per interval across every process on the database (docs/operations.md).
      { pool, name: 'webhook-housekeeping' },
    );
  }

  onApplicationBootstrap(): void {
    const url = this.pool.options.connectionString;
    if (url) {
      this.listener = new AppendListener(
        url,
        WEBHOOK_DELIVERIES_CHANNEL,
        (payload) => this.wake(payload),
        (err) =>
          this.logger.warn({ err }, 'webhook LISTEN connection lost; the worker polls until it is back'),
      );
      this.listener.ensure();
    }
    this.handoff.attach(this.leaseSeconds, (deliveries) => this.accept(deliveries));
    this.loop = this.run();
    this.housekeeping.start();
    void this.housekeeping.runNow().catch(() => undefined);
  }

  /** Graceful: no new claims; attempts in flight are cut short and their leases given back at once. */
  async onModuleDestroy(): Promise<void> {
    this.handoff.detach();
    this.stopping = true;
    this.alarm.ring();
    this.stopSignal.abort();
    await this.loop;
    await Promise.allSettled([...this.inFlight.values()]);
    await this.flushNow();
    await this.flushing;
    await this.queue.release(this.abandoned.splice(0)).catch(() => undefined);
    await this.queue.close();
    await this.housekeeping.stop();
    await this.listener?.close();
    this.sender.close();
  }

  /** One housekeeping pass now (suspensions a crash left behind, retention). */
  keepHouseNow(): Promise<void> {
    return this.housekeeping.runNow();
  }

  private wake(payload: string): void {
    if (payload === '' || payload.split(',').includes('primary')) this.intentsWanted = true;
    this.alarm.ring();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      if (!this.backlog) await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      this.alarm.reset();
      let more = false;
      try {
        if (this.intentsWanted) await this.applyIntents();
        const free = MAX_IN_FLIGHT - this.inFlight.size;
        if (free > 0) {
          const limit = Math.min(free, CLAIM_BATCH);
          const claimed = await this.queue.claim(this.clock.now(), limit, this.leaseSeconds);
          for (const claim of claimed) this.start(claim);
          more = claimed.length === limit;
        }
        this.backlog = more || this.inFlight.size >= MAX_IN_FLIGHT;
        if (more && this.inFlight.size < MAX_IN_FLIGHT) continue;
        await this.alarm.sleep(POLL_INTERVAL_MS);
      } catch (err) {
        if (this.stopping) break;
        this.logger.warn({ err }, 'webhook delivery pass failed; retrying');
        await this.alarm.sleep(POLL_INTERVAL_MS);
      }
    }
  }

  /**
   * Fresh deliveries the projector leased to this process, after their commit: sent at once. One
   * not due yet by the platform clock (a sandbox clock set back meanwhile), or arriving while the
   * worker stops, is given back to the queue.
   */
  private accept(deliveries: HandedDelivery[]): void {
    const now = this.clock.now().getTime();
    const back: HandedDelivery[] = [];
    for (const delivery of deliveries) {
      if (this.stopping || delivery.dueAt.getTime() > now) back.push(delivery);
      else this.start(delivery);
    }
    if (back.length > 0) {
      // Not given back (the database away): the lease runs out and the delivery is claimed then.
      void this.queue.release(back).catch(() => undefined);
    }
  }

  private start(claim: ClaimedDelivery): void {
    const attempt = this.attempt(claim)
      .catch((err: unknown) => this.logger.error({ err, delivery_id: claim.id }, 'webhook attempt failed'))
      .finally(() => {
        this.inFlight.delete(claim.id);
        // Slots are free again while work is waiting: claim the next batch now.
        if (this.backlog && this.inFlight.size <= MAX_IN_FLIGHT / 2) this.alarm.ring();
      });
    this.inFlight.set(claim.id, attempt);
  }

  private async attempt(claim: ClaimedDelivery): Promise<void> {
    const at = this.clock.now();
    const timestamp = Math.floor(this.wallClock.now().getTime() / 1000);
    const keys = signingSecrets(claim.endpoint, at).map((secret) =>
      this.secrets.key(claim.endpointId, secret.sealed),
    );
    const result = await this.sender.send({
      url: claim.url,
      body: claim.body,
      headers: {
        'webhook-id': claim.envelopeId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(keys, claim.envelopeId, timestamp, claim.body),
      },
      environment: this.config.appEnv,
      timeoutMs: this.config.webhookTimeoutMs,
      signal: this.stopSignal.signal,
    });
    if (!result.outcome) {
      this.abandoned.push(claim);
      return;
    }
    const step = nextStep(this.config.webhookRetrySchedule, claim.runAttempts + 1, result.outcome, at);
    const answered = result.outcome.kind === 'answer';
    if (!answered)
      this.logger.debug({ delivery_id: claim.id, detail: result.detail }, 'webhook attempt got no answer');
    this.enqueue({
      claim,
      record: {
        id: claim.id,
        leaseToken: claim.leaseToken,
        state: step.state,
        nextAttemptAt: step.nextAttemptAt,
        attempt: {
          at: at.toISOString(),
          status_code: result.outcome.kind === 'answer' ? result.outcome.statusCode : null,
          error: result.outcome.kind === 'answer' ? null : result.outcome.error,
          duration_ms: result.durationMs,
        },
      },
    });
  }

  private enqueue(pending: Pending): void {
    this.pending.push(pending);
    if (this.pending.length >= FLUSH_SIZE) void this.flushNow();
    else this.flushTimer ??= setTimeout(() => void this.flushNow(), FLUSH_AFTER_MS);
  }

  private flushNow(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() =>
      this.write(batch).catch((err: unknown) =>
        // The leases run out and the deliveries are attempted again: at least once.
        this.logger.error({ err }, 'webhook attempts could not be recorded'),
      ),
    );
    return this.flushing;
  }

  private async write(batch: Pending[]): Promise<void> {
    const runs = new Map<string, EndpointFailureRun>();
    for (const { record, claim } of batch) {
      if (record.state === 'PENDING' || !countsTowardsHealth(claim.eventType)) continue;
      const run = runs.get(claim.endpointId) ?? { endpointId: claim.endpointId, reset: false, failures: 0 };
      if (endedWithoutSuccess(record.state)) run.failures += 1;
      else Object.assign(run, { reset: true, failures: 0 });
      runs.set(claim.endpointId, run);
    }
    const due = await this.queue.record(
      batch.map((p) => p.record),
      [...runs.values()],
    );
    for (const { endpointId, failures } of due) {
      const claim = batch.find((p) => p.claim.endpointId === endpointId)!.claim;
      await this.suspend(endpointId, claim.partnerId, claim.endpoint.version, failures);
    }
    for (const { record, claim } of batch) {
      if (record.state === 'SUCCEEDED') await this.reportFirstSuccess(claim.partnerId);
    }
  }

  /** The platform suspends an endpoint (idempotent per endpoint version: two processes, one event). */
  private async suspend(
    endpointId: string,
    partnerId: string,
    version: number,
    failures: number,
  ): Promise<void> {
    const causation = idFor(endpointId, `webhook-suspend:${version}`, randomUUID);
    try {
      await this.commands.execute(
        new RunWebhookEndpointCommand(
          { type: 'SuspendWebhookEndpoint', endpointId, failedDeliveries: failures },
          systemMetadata(WEBHOOK_DELIVERY_ACTOR, partnerId, causation),
        ),
      );
      this.logger.info({ endpoint_id: endpointId, failures }, 'webhook endpoint suspended');
    } catch (err) {
      if (err instanceof InvalidStateTransition) return; // suspended, re-enabled or deleted meanwhile
      this.logger.warn({ err, endpoint_id: endpointId }, 'suspending a webhook endpoint failed');
    }
  }

  /** Certification's WEBHOOK_DELIVERY_SUCCEEDED fact, once per partner and process. */
  private async reportFirstSuccess(partnerId: string): Promise<void> {
    if (this.reportedPartners.has(partnerId)) return;
    this.reportedPartners.add(partnerId);
    try {
      await this.commands.execute(
        new RunPartnerCommand(
          { type: 'ObserveCertificationFact', partnerId, fact: 'WEBHOOK_DELIVERY_SUCCEEDED' },
          systemMetadata(
            WEBHOOK_DELIVERY_ACTOR,
            partnerId,
            idFor(partnerId, 'webhook-delivery-succeeded', randomUUID),
          ),
        ),
      );
    } catch (err) {
      this.logger.warn({ err, partner_id: partnerId }, 'recording the first webhook delivery failed');
    }
  }

  /**
   * `webhook_url` changes, in partner-stream order per claim. Each runs once whatever happens:
   * its causation id is derived from the change, and the endpoint ignores an older revision.
   */
  private async applyIntents(): Promise<void> {
    this.intentsWanted = false;
    const intents = await this.queue.claimIntents(20);
    for (const intent of intents) {
      const endpointId = primaryEndpointIdFor(intent.partnerId);
      try {
        await this.commands.execute(
          new RunWebhookEndpointCommand(
            {
              type: 'SyncPrimaryWebhookEndpoint',
              endpointId,
              partnerId: intent.partnerId,
              url: intent.url,
              partnerRevision: intent.partnerRevision,
              sealedSecret: this.secrets.generate(endpointId).sealed,
            },
            systemMetadata(
              'system:webhook-primary-endpoint',
              intent.partnerId,
              idFor(`${intent.partnerId}:${intent.position}`, 'primary-webhook-endpoint-sync', randomUUID),
            ),
          ),
        );
        await this.queue.intentDone(intent.position);
      } catch (err) {
        this.intentsWanted = true;
        this.logger.warn(
          { err, partner_id: intent.partnerId },
          'applying webhook_url to the primary endpoint failed',
        );
      }
    }
    if (intents.length === 20) this.intentsWanted = true;
  }

  private async keepHouse(): Promise<void> {
    for (const due of await this.queue.suspensionsDue()) {
      await this.suspend(due.endpointId, due.partnerId, due.version, due.failures);
    }
    await this.queue.prune(new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * DAY_MS));
    this.intentsWanted = true;
    this.alarm.ring();
  }
}
