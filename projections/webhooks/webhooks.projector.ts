import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import { hppUrls } from '../../libs/hosted-pages/src';
import { UUID } from '../../libs/platform/src/validation/uuid';
import type { Projector } from '../../libs/projections/src';
import {
  WEBHOOK_DELIVERIES_CHANNEL,
  WEBHOOK_ENDPOINT_EVENT_TYPES,
  WEBHOOK_ENDPOINT_STREAM_PREFIX,
  WEBHOOK_SOURCE_STREAMS,
  WEBHOOK_TEST_EVENT_TYPE,
  deliveryIdFor,
  envelopeIdFor,
  envelopeOf,
  evolve as evolveEndpoint,
  findWebhookEventType,
  firstAttemptAt,
  renderObject,
  sourceStreamOf,
  webhookTypesOf,
  type DeliveryHandoff,
  type HandedDelivery,
  type ObjectContext,
  type Owner,
  type WebhookEndpoint,
  type WebhookEndpointEvent,
} from '../../libs/webhooks/src';

export interface WebhooksProjectorOptions {
  /** For `hpp_url` and `iframe_url` in hosted-page objects. */
  publicBaseUrl: string;
  /** WEBHOOK_RETRY_SCHEDULE: the first entry delays a new delivery's first attempt. */
  retrySchedule: readonly number[];
  /** This process's delivery worker, which takes the fresh deliveries of live batches (none in ops). */
  handoff?: DeliveryHandoff;
}

/** Envelopes of one event sort apart within it (an event carries at most this many types). */
const TYPES_PER_EVENT = 8n;

interface EndpointRow {
  snapshot: WebhookEndpoint;
  createdPosition: string;
  changed: boolean;
}

interface Envelope {
  id: string;
  type: string;
  owner: Owner;
  at: Date;
  positionKey: bigint;
  body: string;
  /** Set for a test event: its one endpoint, whatever it subscribes to. */
  only: string | null;
}

/** What a batch writes, in one statement. */
interface Writes {
  snapshots: { stream: string; snapshot: unknown }[];
  endpoints: EndpointRow[];
  envelopes: Envelope[];
  deliveries: Record<string, unknown>[];
  /** Seconds to lease fresh deliveries to this process for, or null: left to the claims. */
  lease: number | null;
  /** The fresh deliveries leased to this process, by id, to hand over after the commit. */
  handed: Map<string, HandedDelivery>;
  replays: Map<string, { id: string; endpoint_id: string; position: string; at: string }>;
  resets: Map<string, string>;
  /** Deleted endpoints: their deliveries leave the queue (never attempted again). */
  deleted: Set<string>;
  intents: { position: string; partner_id: string; revision: string; url: string | null }[];
}

/**
 * `webhooks`: the delivery pipeline's front half (docs/webhooks.md, docs/adr/0006). For each batch
 * of events, in the transaction that also moves its checkpoint:
 *
 * - folds every source aggregate (merchant, transaction, hosted-page session, stored credential,
 *   customer, settlement batch) with its own `evolve` into `webhook_snapshots`, so `data.object`
 *   is the resource as it was at the event;
 * - keeps `webhook_endpoints` (the endpoints, their state and subscriptions);
 * - turns each partner-visible event into its envelopes (`webhook_events`, id derived from the
 *   event id) and one `webhook_deliveries` row per subscribed ENABLED endpoint of that moment,
 *   keyed (envelope's position key, endpoint) with `on conflict do nothing`, each queued in
 *   `webhook_due`;
 * - re-arms replayed deliveries, queues test events and the primary endpoint's `webhook_url`
 *   changes (`webhook_primary_intents`), and NOTIFYs the delivery workers; the fresh deliveries
 *   due at once go, leased, to this process's worker after the commit instead (docs/adr/0006).
 *
 * One statement reads what the batch needs and one writes everything, so a batch costs two round
 * trips whatever its size. A redelivered or re-applied event writes nothing twice: deliveries are
 * made only for an envelope this statement inserted, and a replay only re-arms a delivery whose
 * last replay is older. A rebuild swaps only the endpoints and snapshots; the envelope table tells
 * it which events were already fanned out, and events at or below
 * `webhook_retention.pruned_through` (their envelopes pruned after 30 days) are folded but never
 * turned into envelopes again.
 */
export class WebhooksProjector implements Projector {
  readonly name = 'webhooks';
  readonly eventTypes: readonly string[] = [
    ...new Set([
      ...WEBHOOK_SOURCE_STREAMS.flatMap((source) => source.eventTypes),
      ...WEBHOOK_ENDPOINT_EVENT_TYPES,
      'PartnerSettingsChanged',
    ]),
  ];
  readonly tables = ['webhook_endpoints', 'webhook_snapshots'];
  private readonly objects: ObjectContext;
  /** Fresh deliveries leased in a transaction, handed over when (and only if) it commits. */
  private readonly staged = new WeakMap<EntityManager, HandedDelivery[]>();

  constructor(private readonly options: WebhooksProjectorOptions) {
    this.objects = { hppUrls: (id) => hppUrls(options.publicBaseUrl, id) };
  }

  handle(tx: EntityManager, event: RecordedEvent): Promise<void> {
    return this.handleBatch(tx, [event]);
  }

  async handleBatch(tx: EntityManager, events: RecordedEvent[]): Promise<void> {
    const { horizon, snapshots, endpoints } = await this.load(tx, events);
    // Only a delivery due at once is leased: one with a delay waits for its time in the queue.
    const lease = this.options.retrySchedule[0] === 0 ? (this.options.handoff?.leaseSeconds() ?? null) : null;
    const writes: Writes = {
      snapshots: [],
      endpoints: [],
      envelopes: [],
      deliveries: [],
      lease,
      handed: new Map(),
      replays: new Map(),
      resets: new Map(),
      deleted: new Set(),
      intents: [],
    };
    const changedStreams = new Set<string>();
    for (const event of events) {
      const fresh = event.globalPosition > horizon;
      if (event.stream.startsWith(WEBHOOK_ENDPOINT_STREAM_PREFIX)) {
        this.applyEndpointEvent(event, fresh, endpoints, writes);
      } else if (event.type === 'PartnerSettingsChanged') {
        const data = event.data as { partnerId: string; webhookUrl?: string | null };
        if (fresh && data.webhookUrl !== undefined) {
          writes.intents.push({
            position: event.globalPosition.toString(),
            partner_id: data.partnerId,
            revision: event.revision.toString(),
            url: data.webhookUrl,
          });
        }
      } else {
        const source = sourceStreamOf(event.stream);
        if (!source) continue;
        const state = source.evolve(snapshots.get(event.stream) ?? null, {
          type: event.type,
          data: event.data,
        });
        if (!state) continue;
        snapshots.set(event.stream, state);
        changedStreams.add(event.stream);
        if (!fresh) continue;
        webhookTypesOf(event.type).forEach((type, index) => {
          const object = renderObject(
            findWebhookEventType(type)!.object,
            state,
            this.objects,
            event.recordedAt,
          );
          this.emit(this.envelope(event, type, index, source.owner(state), object, null), endpoints, writes);
        });
      }
    }
    writes.snapshots = [...changedStreams].map((stream) => ({ stream, snapshot: snapshots.get(stream) }));
    writes.endpoints = [...endpoints.values()].filter((row) => row.changed);
    const handed = await this.save(tx, writes);
    if (handed.length > 0) this.staged.set(tx, [...(this.staged.get(tx) ?? []), ...handed]);
  }

  /** The batch committed: its fresh deliveries go to this process's worker. */
  afterCommit(tx: EntityManager): void {
    const handed = this.staged.get(tx);
    if (!handed) return;
    this.staged.delete(tx);
    this.options.handoff?.deliver(handed);
  }

  /** The endpoint's own events: its row, and what they ask of the delivery tables. */
  private applyEndpointEvent(
    event: RecordedEvent,
    fresh: boolean,
    endpoints: Map<string, EndpointRow>,
    writes: Writes,
  ): void {
    const endpointId = event.stream.slice(WEBHOOK_ENDPOINT_STREAM_PREFIX.length);
    const row = endpoints.get(endpointId);
    const next = evolveEndpoint(row?.snapshot ?? null, {
      type: event.type,
      data: event.data,
    } as WebhookEndpointEvent);
    if (!next) return;
    endpoints.set(endpointId, {
      snapshot: next,
      createdPosition: row?.createdPosition ?? event.globalPosition.toString(),
      changed: true,
    });
    // Also in a rebuild: the queue is never swapped, and a deleted endpoint's rows must not be in it.
    if (event.type === 'WebhookEndpointDeleted') writes.deleted.add(endpointId);
    if (!fresh) return;
    const position = event.globalPosition.toString();
    if (event.type === 'WebhookEndpointReenabled' || event.type === 'WebhookEndpointCreated') {
      writes.resets.set(endpointId, position);
    } else if (event.type === 'WebhookDeliveryReplayRequested') {
      const data = event.data as { deliveryId: string; requestedAt: string };
      const at = firstAttemptAt(this.options.retrySchedule, new Date(data.requestedAt)).toISOString();
      writes.replays.set(data.deliveryId, { id: data.deliveryId, endpoint_id: endpointId, position, at });
    } else if (event.type === 'WebhookEndpointTestRequested') {
      const data = event.data as { testId: string };
      const object = renderObject('webhook_endpoint', next, this.objects, event.recordedAt);
      const owner = { partnerId: next.partnerId, merchantId: null };
      this.emit(
        this.envelope(event, WEBHOOK_TEST_EVENT_TYPE, 0, owner, object, endpointId, data.testId),
        endpoints,
        writes,
      );
    }
  }

  private envelope(
    event: RecordedEvent,
    type: string,
    index: number,
    owner: Owner,
    object: unknown,
    only: string | null,
    id = envelopeIdFor(event.id, type),
  ): Envelope {
    return {
      id,
      type,
      owner,
      at: event.recordedAt,
      positionKey: event.globalPosition * TYPES_PER_EVENT + BigInt(index),
      body: JSON.stringify(envelopeOf(id, type, event.recordedAt, owner, object)),
      only,
    };
  }

  /** The envelope, and one delivery per ENABLED endpoint of its partner that subscribes to its type. */
  private emit(envelope: Envelope, endpoints: Map<string, EndpointRow>, writes: Writes): void {
    writes.envelopes.push(envelope);
    const due = firstAttemptAt(this.options.retrySchedule, envelope.at).toISOString();
    for (const [id, { snapshot }] of endpoints) {
      if (snapshot.partnerId !== envelope.owner.partnerId || snapshot.state !== 'ENABLED') continue;
      if (envelope.only !== null ? envelope.only !== id : !subscribes(snapshot, envelope.type)) continue;
      const deliveryId = deliveryIdFor(id, envelope.id);
      const leaseToken = writes.lease === null ? null : randomUUID();
      writes.deliveries.push({
        id: deliveryId,
        endpoint_id: id,
        partner_id: snapshot.partnerId,
        envelope_id: envelope.id,
        event_type: envelope.type,
        position_key: envelope.positionKey.toString(),
        next_attempt_at: due,
        created_at: envelope.at.toISOString(),
        lease_token: leaseToken,
      });
      if (leaseToken) {
        writes.handed.set(deliveryId, {
          id: deliveryId,
          leaseToken,
          runAttempts: 0,
          endpointId: id,
          partnerId: snapshot.partnerId,
          eventType: envelope.type,
          envelopeId: envelope.id,
          url: snapshot.url,
          endpoint: snapshot,
          body: envelope.body,
          dueAt: new Date(due),
        });
      }
    }
  }

  /**
   * In one statement: the retention horizon, the snapshots of the batch's source streams, and the
   * endpoints the batch changes or may deliver to (those of every partner its events belong to).
   */
  private async load(tx: EntityManager, events: RecordedEvent[]) {
    const streams = new Set<string>();
    const endpointIds = new Set<string>();
    const partners = new Set<string>();
    for (const event of events) {
      if (event.stream.startsWith(WEBHOOK_ENDPOINT_STREAM_PREFIX)) {
        endpointIds.add(event.stream.slice(WEBHOOK_ENDPOINT_STREAM_PREFIX.length));
      } else if (sourceStreamOf(event.stream)) {
        streams.add(event.stream);
        const partnerId = (event.data as { partnerId?: unknown }).partnerId;
        if (typeof partnerId === 'string' && UUID.test(partnerId)) partners.add(partnerId);
      }
    }
    const rows = (await tx.query(
      `with s as (select stream, snapshot from webhook_snapshots where stream = any($1::text[]))
       select 'horizon' as kind, pruned_through::text as key, null::jsonb as snapshot, null::text as created_position
         from webhook_retention
       union all
       select 'snapshot', stream, snapshot, null from s
       union all
       select 'endpoint', id::text, snapshot, created_position::text from webhook_endpoints
        where id = any($2::uuid[]) or partner_id = any($3::uuid[])
           or partner_id in (select (s.snapshot->>'partnerId')::uuid from s)`,
      [[...streams], [...endpointIds], [...partners]],
    )) as { kind: string; key: string; snapshot: unknown; created_position: string | null }[];
    let horizon = 0n;
    const snapshots = new Map<string, unknown>();
    const endpoints = new Map<string, EndpointRow>();
    for (const row of rows) {
      if (row.kind === 'horizon') horizon = BigInt(row.key);
      else if (row.kind === 'snapshot') snapshots.set(row.key, row.snapshot);
      else {
        endpoints.set(row.key, {
          snapshot: row.snapshot as WebhookEndpoint,
          createdPosition: row.created_position!,
          changed: false,
        });
      }
    }
    return { horizon, snapshots, endpoints };
  }

  /**
   * Everything in one statement. Envelopes go in first (`on conflict do nothing`); deliveries only
   * for the envelopes it inserted, so an event fanned out before (a redelivery, a rebuild) makes no
   * delivery again. Each new or replayed delivery is queued in `webhook_due`, the worker's queue;
   * a fresh one due at once is leased to this process's worker when it takes them
   * (`DeliveryHandoff`), and handed over by {@link afterCommit}. The NOTIFY, for the rest, reaches
   * the workers of every process at commit. Answers the deliveries to hand over.
   */
  private async save(tx: EntityManager, writes: Writes): Promise<HandedDelivery[]> {
    const nothing =
      writes.snapshots.length +
        writes.endpoints.length +
        writes.envelopes.length +
        writes.replays.size +
        writes.resets.size +
        writes.deleted.size +
        writes.intents.length ===
      0;
    if (nothing) return [];
    const json = (rows: unknown[]) => JSON.stringify(rows);
    const [{ handed }] = (await tx.query(
      `with snapshots as (
         insert into webhook_snapshots (stream, snapshot)
         select r.stream, r.snapshot from jsonb_to_recordset($1::jsonb) as r(stream text, snapshot jsonb)
         on conflict (stream) do update set snapshot = excluded.snapshot
       ), endpoints as (
         insert into webhook_endpoints (id, partner_id, url, enabled_events, state, is_primary, created_position,
           version, snapshot)
         select r.id, r.partner_id, r.url, r.enabled_events, r.state, r.is_primary, r.created_position, r.version,
                r.snapshot
           from jsonb_to_recordset($2::jsonb) as r(id uuid, partner_id uuid, url text, enabled_events text[],
                state text, is_primary boolean, created_position bigint, version integer, snapshot jsonb)
         on conflict (id) do update set url = excluded.url, enabled_events = excluded.enabled_events,
           state = excluded.state, is_primary = excluded.is_primary, version = excluded.version,
           snapshot = excluded.snapshot
       ), envelopes as (
         insert into webhook_events (id, partner_id, merchant_id, type, created_at, position_key, body)
         select r.id, r.partner_id, r.merchant_id, r.type, r.created_at, r.position_key, r.body
           from jsonb_to_recordset($3::jsonb) as r(id uuid, partner_id uuid, merchant_id uuid, type text,
                created_at timestamptz, position_key bigint, body text)
         on conflict (id) do nothing
         returning id
       ), incoming as materialized (
         select * from jsonb_to_recordset($4::jsonb) as r(id uuid, endpoint_id uuid, partner_id uuid,
                envelope_id uuid, event_type text, position_key bigint, next_attempt_at timestamptz,
                created_at timestamptz, lease_token uuid)
       ), deliveries as (
         insert into webhook_deliveries (id, endpoint_id, partner_id, envelope_id, event_type, position_key, state,
           next_attempt_at, created_at, updated_at)
         select r.id, r.endpoint_id, r.partner_id, r.envelope_id, r.event_type, r.position_key, 'PENDING',
                r.next_attempt_at, r.created_at, r.created_at
           from incoming r join envelopes on envelopes.id = r.envelope_id
         on conflict (position_key, endpoint_id) do nothing
         returning id
       ), queued as (
         -- Leased to this process when its worker takes fresh deliveries (the lease a claim takes).
         insert into webhook_due (delivery_id, endpoint_id, due_at, lease_token, lease_until)
         select r.id, r.endpoint_id, r.next_attempt_at, r.lease_token,
                case when r.lease_token is not null then clock_timestamp() + make_interval(secs => $9::int) end
           from deliveries d join incoming r on r.id = d.id
         returning delivery_id, lease_token
       ), replays as (
         -- A replay starts a new run of the schedule on the same delivery (same envelope, same id).
         update webhook_deliveries d
            set state = 'PENDING', run_attempts = 0, next_attempt_at = r.at, replayed_position = r.position,
                updated_at = r.at
           from jsonb_to_recordset($5::jsonb) as r(id uuid, endpoint_id uuid, position bigint, at timestamptz)
          where d.id = r.id and d.endpoint_id = r.endpoint_id and d.replayed_position < r.position
         returning d.id, d.endpoint_id, r.at
       ), requeued as (
         -- Back in the queue, out of any lease: an attempt of the old run still in flight records
         -- its attempt but no longer decides the delivery's state.
         insert into webhook_due (delivery_id, endpoint_id, due_at)
         select id, endpoint_id, at from replays
         on conflict (delivery_id) do update set due_at = excluded.due_at, lease_token = null, lease_until = null
       ), dequeued as (
         -- A deleted endpoint's deliveries are not attempted any more: every claim would walk past them.
         -- The cardinality test first: with no deletion in the batch (nearly always) the plan is a
         -- one-time false filter; without it every batch scanned the whole queue (no index on
         -- endpoint_id), 2 ms per batch at 20,000 queued deliveries.
         delete from webhook_due where cardinality($10::uuid[]) > 0 and endpoint_id = any($10::uuid[])
       ), resets as (
         insert into webhook_endpoint_health (endpoint_id, consecutive_failures, reset_position)
         select r.endpoint_id, 0, r.position from jsonb_to_recordset($6::jsonb) as r(endpoint_id uuid, position bigint)
         on conflict (endpoint_id) do update set consecutive_failures = 0, reset_position = excluded.reset_position,
           updated_at = now()
         where webhook_endpoint_health.reset_position < excluded.reset_position
       ), intents as (
         insert into webhook_primary_intents (position, partner_id, partner_revision, url)
         select r.position, r.partner_id, r.revision, r.url
           from jsonb_to_recordset($7::jsonb) as r(position bigint, partner_id uuid, revision bigint, url text)
         on conflict (position) do nothing
         returning 1
       ), wake as (
         -- Deliveries leased to this process wake nobody: its worker has them already.
         select concat_ws(',',
                  case when exists (select 1 from queued where lease_token is null)
                         or exists (select 1 from replays) then 'deliveries' end,
                  case when exists (select 1 from intents) then 'primary' end) as payload
       ), notified as (
         select pg_notify($8, payload) from wake where payload <> ''
       )
       select (select count(*) from notified) as notified,
              array(select delivery_id::text from queued where lease_token is not null) as handed`,
      [
        json(writes.snapshots),
        json(
          writes.endpoints.map(({ snapshot, createdPosition }) => ({
            id: snapshot.id,
            partner_id: snapshot.partnerId,
            url: snapshot.url,
            enabled_events: snapshot.enabledEvents,
            state: snapshot.state,
            is_primary: snapshot.primary,
            created_position: createdPosition,
            version: snapshot.version,
            snapshot,
          })),
        ),
        json(
          writes.envelopes.map((e) => ({
            id: e.id,
            partner_id: e.owner.partnerId,
            merchant_id: e.owner.merchantId,
            type: e.type,
            created_at: e.at.toISOString(),
            position_key: e.positionKey.toString(),
            body: e.body,
          })),
        ),
        json(writes.deliveries),
        json([...writes.replays.values()]),
        json([...writes.resets].map(([endpoint_id, position]) => ({ endpoint_id, position }))),
        json(writes.intents),
        WEBHOOK_DELIVERIES_CHANNEL,
        writes.lease,
        [...writes.deleted],
      ],
    )) as { handed: string[] }[];
    // Only what this statement inserted: a redelivered batch hands over nothing twice.
    return handed.map((id) => writes.handed.get(id)!);
  }
}

function subscribes(endpoint: WebhookEndpoint, type: string): boolean {
  const definition = findWebhookEventType(type);
  if (!definition?.subscribable) return false;
  return endpoint.enabledEvents === null || endpoint.enabledEvents.includes(type);
}
