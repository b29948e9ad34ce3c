import { Pool, type QueryResultRow } from 'pg';
import type { DeliveryState } from '../domain/delivery-rules';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import { SUSPEND_AFTER_FAILED_DELIVERIES } from '../domain/webhook-endpoint-states';
import { WEBHOOK_TEST_EVENT_TYPE } from '../domain/webhook-event-types';

/** The channel the `webhooks` projector NOTIFYs when it wrote due work (deliveries, replays, intents). */
export const WEBHOOK_DELIVERIES_CHANNEL = 'webhook_deliveries';

/** How long `GET /events` shows an envelope, and delivery history is kept (platform clock). */
export const EVENT_RETENTION_DAYS = 30;

/** A due delivery this process now holds (until `lease_until`), with all it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  leaseToken: string;
  /** Attempts made in the current run (a replay starts a new run). */
  runAttempts: number;
  endpointId: string;
  partnerId: string;
  eventType: string;
  envelopeId: string;
  url: string;
  endpoint: WebhookEndpoint;
  body: string;
}

/**
 * The newest envelope older than $1 (the retention horizon), by position: read through the
 * `created_at` index, so only the envelopes about to go (projections/sweep-plans.spec.ts).
 */
export const PRUNE_HORIZON_SQL =
  'select max(position_key)::text as key from webhook_events where created_at < $1';

export interface AttemptRecord {
  id: string;
  leaseToken: string;
  state: DeliveryState;
  nextAttemptAt: Date | null;
  attempt: { at: string; status_code: number | null; error: string | null; duration_ms: number };
}

export interface EndpointFailureRun {
  endpointId: string;
  /** A delivery of the batch succeeded after the failures counted before it: start from zero. */
  reset: boolean;
  /** Deliveries that ended without success after the last success of the batch. */
  failures: number;
}

/**
 * The SQL of the delivery tables (docs/webhooks.md, "For operators"). The queue is `webhook_due`:
 * one narrow row per delivery waiting for an attempt, apart from its history in
 * `webhook_deliveries`, so that history is written once per attempt, in place. Claims are leases on
 * queue rows taken with `FOR UPDATE SKIP LOCKED`, so processes sharing the database never claim
 * the same delivery, and a claim whose process died expires (`lease_until`, database time) and is
 * claimed again: at least once. Due times are on the platform clock.
 */
export class DeliveryQueue {
  /**
   * Claims and attempt records run on connections of the worker's own, set up for a queue:
   * - they never plan a bitmap scan: a claim must walk the queue's index on `due_at` in order and
   *   stop at the first usable rows. A bitmap scan (what the planner picks while the table's
   *   statistics still say it is small) visits every dead entry finished deliveries left in that
   *   index on every pass, until vacuum; an index scan marks them dead on its first visit;
   * - nor a sequential scan: every statement here touches a batch of rows by key, and with young
   *   statistics the planner hashed the batch against a scan of the whole table (a record read
   *   150,000 rows in 8 s of SALE load, growing with the table; docs/benchmarks.md);
   * - their commits do not wait for the WAL flush (`synchronous_commit = off`): a lease or an
   *   attempt a database crash forgets (its last fraction of a second) only means the attempt is
   *   made again, which at-least-once delivery allows, and the write path's commits are not kept
   *   waiting behind the worker's.
   */
  private readonly queue: Pool;

  constructor(private readonly pool: Pool) {
    this.queue = new Pool({
      connectionString: pool.options.connectionString,
      application_name: 'partner-payments:webhook-queue',
      options: '-c enable_bitmapscan=off -c enable_seqscan=off -c synchronous_commit=off',
      max: 3,
    });
    this.queue.on('error', () => undefined); // an idle connection lost: the next query opens another
  }

  /** Closes the queue's connections (the worker is stopping). */
  async close(): Promise<void> {
    await this.queue.end().catch(() => undefined);
  }

  /**
   * `name`: a named statement, prepared once per connection. The claim is: planning it (a join of
   * three tables under a locking CTE) took ~1.3 ms, several times what executing one batch takes.
   * The record is not: after five runs PostgreSQL chose a generic plan for it that cost three times
   * the planning it saved (measured with `bench/profile-sale.ts`, WEBHOOKS=1).
   */
  private async queued<R extends QueryResultRow>(
    name: string | null,
    text: string,
    values: unknown[],
  ): Promise<R[]> {
    return (await this.queue.query<R>(name ? { name, text, values } : { text, values })).rows;
  }

  async claim(now: Date, limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    const rows = await this.queued<{
      id: string;
      lease_token: string;
      run_attempts: number;
      endpoint_id: string;
      partner_id: string;
      event_type: string;
      envelope_id: string;
      url: string;
      snapshot: WebhookEndpoint;
      body: string;
    }>(
      'webhook_claim',
      `with due as (
         select w.delivery_id from webhook_due w
          where w.due_at <= $1 and (w.lease_until is null or w.lease_until < clock_timestamp())
            and exists (select 1 from webhook_endpoints e where e.id = w.endpoint_id and e.state = 'ENABLED')
          order by w.due_at
          limit $2
          for update of w skip locked
       ), leased as (
         update webhook_due w
            set lease_token = gen_random_uuid(), lease_until = clock_timestamp() + make_interval(secs => $3)
           from due where w.delivery_id = due.delivery_id
         returning w.delivery_id, w.lease_token
       )
       select d.id, l.lease_token, d.run_attempts, d.endpoint_id, d.partner_id, d.event_type, d.envelope_id,
              e.url, e.snapshot, v.body
         from leased l
         join webhook_deliveries d on d.id = l.delivery_id
         join webhook_endpoints e on e.id = d.endpoint_id
         join webhook_events v on v.id = d.envelope_id`,
      [now, limit, leaseSeconds],
    );
    return rows.map((row) => ({
      id: row.id,
      leaseToken: row.lease_token,
      runAttempts: row.run_attempts,
      endpointId: row.endpoint_id,
      partnerId: row.partner_id,
      eventType: row.event_type,
      envelopeId: row.envelope_id,
      url: row.url,
      endpoint: row.snapshot,
      body: row.body,
    }));
  }

  /**
   * Appends each attempt to its delivery's history. Its outcome (state, next attempt) is applied
   * only while this process still holds the lease: a delivery replayed meanwhile keeps its new run.
   * The queue row goes when the delivery ended, or carries the next due time.
   * In the same statement, counts consecutive deliveries that ended without success per endpoint
   * (`runs`, test events aside) and answers the endpoints that reached the suspension threshold.
   */
  async record(
    records: AttemptRecord[],
    runs: EndpointFailureRun[],
  ): Promise<{ endpointId: string; failures: number }[]> {
    if (records.length === 0) return [];
    const rows = await this.queued<{ endpoint_id: string; consecutive_failures: number }>(
      null,
      `with r as materialized (
         select * from jsonb_to_recordset($1::jsonb) as r(id uuid, token uuid, state text, attempt jsonb,
                next_attempt_at timestamptz, at timestamptz)
       ), ended as (
         delete from webhook_due w using r
          where w.delivery_id = r.id and w.lease_token = r.token and r.state <> 'PENDING'
         returning w.delivery_id
       ), retried as (
         update webhook_due w set due_at = r.next_attempt_at, lease_token = null, lease_until = null
           from r where w.delivery_id = r.id and w.lease_token = r.token and r.state = 'PENDING'
         returning w.delivery_id
       ), held as (
         select delivery_id from ended union all select delivery_id from retried
       ), outcomes as (
         -- A join, not two EXISTS per record: those scanned both lists once per record.
         select r.*, held.delivery_id is not null as held
           from r left join held on held.delivery_id = r.id
       ), attempts as (
         update webhook_deliveries d
            set attempts = d.attempts || jsonb_build_array(o.attempt),
                state = case when o.held then o.state else d.state end,
                run_attempts = case when o.held then d.run_attempts + 1 else d.run_attempts end,
                next_attempt_at = case when o.held then o.next_attempt_at else d.next_attempt_at end,
                updated_at = o.at
           from outcomes o
          where d.id = o.id
       ), runs as (
         select * from jsonb_to_recordset($2::jsonb) as r(endpoint_id uuid, reset boolean, failures integer)
       ), updated as (
         update webhook_endpoint_health h
            set consecutive_failures = case when runs.reset then runs.failures else h.consecutive_failures + runs.failures end,
                updated_at = now()
           from runs where h.endpoint_id = runs.endpoint_id
         returning h.endpoint_id, h.consecutive_failures
       ), inserted as (
         insert into webhook_endpoint_health (endpoint_id, consecutive_failures)
         select runs.endpoint_id, runs.failures from runs
          where not exists (select 1 from updated u where u.endpoint_id = runs.endpoint_id)
         on conflict (endpoint_id) do nothing
         returning endpoint_id, consecutive_failures
       )
       select * from updated where consecutive_failures >= $3
       union all select * from inserted where consecutive_failures >= $3`,
      [
        JSON.stringify(
          records.map((record) => ({
            id: record.id,
            token: record.leaseToken,
            state: record.state,
            attempt: record.attempt,
            next_attempt_at: record.nextAttemptAt?.toISOString() ?? null,
            at: record.attempt.at,
          })),
        ),
        JSON.stringify(
          runs.map((run) => ({ endpoint_id: run.endpointId, reset: run.reset, failures: run.failures })),
        ),
        SUSPEND_AFTER_FAILED_DELIVERIES,
      ],
    );
    return rows.map((row) => ({ endpointId: row.endpoint_id, failures: row.consecutive_failures }));
  }

  /** Gives back claims this process will not finish (it is stopping): another may take them at once. */
  async release(claims: { id: string; leaseToken: string }[]): Promise<void> {
    if (claims.length === 0) return;
    await this.pool.query(
      `update webhook_due w set lease_token = null, lease_until = null
         from jsonb_to_recordset($1::jsonb) as r(id uuid, token uuid)
        where w.delivery_id = r.id and w.lease_token = r.token`,
      [JSON.stringify(claims.map((claim) => ({ id: claim.id, token: claim.leaseToken })))],
    );
  }

  /** ENABLED endpoints past the suspension threshold (a suspension that did not get recorded). */
  async suspensionsDue(): Promise<
    { endpointId: string; partnerId: string; version: number; failures: number }[]
  > {
    const { rows } = await this.pool.query<{
      endpoint_id: string;
      partner_id: string;
      version: number;
      consecutive_failures: number;
    }>(
      `select h.endpoint_id, e.partner_id, e.version, h.consecutive_failures
         from webhook_endpoint_health h join webhook_endpoints e on e.id = h.endpoint_id
        where h.consecutive_failures >= $1 and e.state = 'ENABLED'`,
      [SUSPEND_AFTER_FAILED_DELIVERIES],
    );
    return rows.map((row) => ({
      endpointId: row.endpoint_id,
      partnerId: row.partner_id,
      version: row.version,
      failures: row.consecutive_failures,
    }));
  }

  /** Primary-endpoint changes to apply, leased like deliveries, oldest first. */
  async claimIntents(
    limit: number,
  ): Promise<{ position: string; partnerId: string; partnerRevision: string; url: string | null }[]> {
    const { rows } = await this.pool.query<{
      position: string;
      partner_id: string;
      partner_revision: string;
      url: string | null;
    }>(
      `update webhook_primary_intents i set lease_until = clock_timestamp() + interval '30 seconds'
         from (select position from webhook_primary_intents
                where done_at is null and (lease_until is null or lease_until < clock_timestamp())
                order by position limit $1 for update skip locked) c
        where i.position = c.position
       returning i.position::text, i.partner_id, i.partner_revision::text, i.url`,
      [limit],
    );
    return rows
      .map((row) => ({
        position: row.position,
        partnerId: row.partner_id,
        partnerRevision: row.partner_revision,
        url: row.url,
      }))
      .sort((a, b) => (BigInt(a.position) < BigInt(b.position) ? -1 : 1));
  }

  async intentDone(position: string): Promise<void> {
    await this.pool.query(
      'update webhook_primary_intents set done_at = now(), lease_until = null where position = $1',
      [position],
    );
  }

  /**
   * Envelopes older than the retention (and their finished deliveries) go; the horizon moves so a
   * rebuild does not bring their events back as new envelopes.
   */
  async prune(before: Date): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query<{ key: string | null }>(PRUNE_HORIZON_SQL, [before]);
      const key = rows[0]?.key;
      if (!key) {
        await client.query('commit');
        return 0;
      }
      // Finished deliveries, and those that can no longer be attempted (their endpoint deleted, or
      // suspended for as long as the retention).
      await client.query(
        `with gone as (
           delete from webhook_deliveries d where d.position_key <= $1
              and (d.state <> 'PENDING'
                   or not exists (select 1 from webhook_endpoints e where e.id = d.endpoint_id and e.state = 'ENABLED'))
           returning d.id
         )
         delete from webhook_due w using gone where w.delivery_id = gone.id`,
        [key],
      );
      const deleted = await client.query(
        `delete from webhook_events v where v.position_key <= $1
           and not exists (select 1 from webhook_deliveries d where d.position_key = v.position_key)`,
        [key],
      );
      const position = (BigInt(key) / 8n).toString();
      await client.query(
        'update webhook_retention set pruned_through = greatest(pruned_through, $1::bigint)',
        [position],
      );
      await client.query('delete from webhook_primary_intents where done_at is not null and position <= $1', [
        position,
      ]);
      await client.query('commit');
      return deleted.rowCount ?? 0;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

/** Test deliveries say nothing about whether an endpoint receives its events. */
export function countsTowardsHealth(eventType: string): boolean {
  return eventType !== WEBHOOK_TEST_EVENT_TYPE;
}
