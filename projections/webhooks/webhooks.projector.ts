import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import { hppUrls } from '../../libs/hosted-pages/src';
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
}

/** Envelopes of one event sort apart within it (an event carries at most this many types). */
const TYPES_PER_EVENT = 8n;

interface EndpointRow {
  snapshot: WebhookEndpoint;
  createdPosition: string;
  changed: boolean;
}

interface Replay {
  id: string;
  endpoint_id: string;
  position: string;
  at: string;
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

/**
 * `webhooks`: the delivery pipeline's front half (docs/webhooks.md, ARCHITECTURE §10.6). For each
 * batch of events, in the transaction that also moves its checkpoint:
 *
 * - folds every source aggregate (merchant, transaction, hosted-page session, stored credential,
 *   customer, settlement batch) with its own `evolve` into `webhook_snapshots`, so `data.object`
 *   is the resource as it was at the event;
 * - keeps `webhook_endpoints` (the endpoints, their state and subscriptions);
 * - turns each partner-visible event into its envelopes (`webhook_events`, id derived from the
 *   event id) and one `webhook_deliveries` row per subscribed ENABLED endpoint of that moment,
 *   keyed (endpoint, envelope) with `on conflict do nothing`;
 * - re-arms replayed deliveries, queues test events and the primary endpoint's `webhook_url`
 *   changes (`webhook_primary_intents`), and NOTIFYs the delivery worker.
 *
 * A redelivered or re-applied event writes nothing twice: deliveries are made only for an
 * envelope this transaction inserted, and a replay only re-arms a delivery whose last replay is
 * older. A rebuild swaps only the endpoints and snapshots; the envelope table tells it which
 * events were already fanned out, and events at or below `webhook_retention.pruned_through`
 * (their envelopes pruned after 30 days) are folded but never turned into envelopes again.
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

  constructor(private readonly options: WebhooksProjectorOptions) {
    this.objects = { hppUrls: (id) => hppUrls(options.publicBaseUrl, id) };
  }

  handle(tx: EntityManager, event: RecordedEvent): Promise<void> {
    return this.handleBatch(tx, [event]);
  }

  async handleBatch(tx: EntityManager, events: RecordedEvent[]): Promise<void> {
    const [{ pruned_through: prunedThrough }] = (await tx.query(
      'select pruned_through from webhook_retention',
    )) as { pruned_through: string }[];
    const horizon = BigInt(prunedThrough);
    const snapshots = await this.loadSnapshots(tx, events);
    const changedStreams = new Set<string>();
    const envelopes: Envelope[] = [];
    const ordered: ({ kind: 'envelope'; envelope: Envelope } | { kind: 'endpoint'; event: RecordedEvent })[] =
      [];
    const intents: { position: string; partnerId: string; revision: string; url: string | null }[] = [];

    for (const event of events) {
      const fresh = event.globalPosition > horizon;
      if (event.stream.startsWith(WEBHOOK_ENDPOINT_STREAM_PREFIX)) {
        ordered.push({ kind: 'endpoint', event });
        continue;
      }
      if (event.type === 'PartnerSettingsChanged') {
        const data = event.data as { partnerId: string; webhookUrl?: string | null };
        if (fresh && data.webhookUrl !== undefined) {
          intents.push({
            position: event.globalPosition.toString(),
            partnerId: data.partnerId,
            revision: event.revision.toString(),
            url: data.webhookUrl,
          });
        }
        continue;
      }
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
        const kind = findWebhookEventType(type)!.object;
        const envelope = this.envelope(
          event,
          type,
          index,
          source.owner(state),
          renderObject(kind, state, this.objects, event.recordedAt),
          null,
        );
        envelopes.push(envelope);
        ordered.push({ kind: 'envelope', envelope });
      });
    }

    const endpoints = await this.loadEndpoints(tx, events, envelopes);
    const deliveries: Record<string, unknown>[] = [];
    const replays = new Map<string, Replay>();
    const resets: { endpoint_id: string; position: string }[] = [];
    for (const item of ordered) {
      if (item.kind === 'envelope') {
        deliveries.push(...this.fanOut(item.envelope, endpoints));
        continue;
      }
      const event = item.event;
      const endpointId = event.stream.slice(WEBHOOK_ENDPOINT_STREAM_PREFIX.length);
      const row = endpoints.get(endpointId);
      const next = evolveEndpoint(row?.snapshot ?? null, {
        type: event.type,
        data: event.data,
      } as WebhookEndpointEvent);
      if (!next) continue;
      endpoints.set(endpointId, {
        snapshot: next,
        createdPosition: row?.createdPosition ?? event.globalPosition.toString(),
        changed: true,
      });
      if (event.globalPosition <= horizon) continue;
      if (event.type === 'WebhookEndpointReenabled' || event.type === 'WebhookEndpointCreated') {
        resets.push({ endpoint_id: endpointId, position: event.globalPosition.toString() });
      } else if (event.type === 'WebhookDeliveryReplayRequested') {
        const data = event.data as { deliveryId: string; requestedAt: string };
        replays.set(data.deliveryId, {
          id: data.deliveryId,
          endpoint_id: endpointId,
          position: event.globalPosition.toString(),
          at: firstAttemptAt(this.options.retrySchedule, new Date(data.requestedAt)).toISOString(),
        });
      } else if (event.type === 'WebhookEndpointTestRequested') {
        const data = event.data as { testId: string };
        const object = renderObject('webhook_endpoint', next, this.objects, event.recordedAt);
        const envelope = this.envelope(
          event,
          WEBHOOK_TEST_EVENT_TYPE,
          0,
          { partnerId: next.partnerId, merchantId: null },
          object,
          endpointId,
          data.testId,
        );
        envelopes.push(envelope);
        deliveries.push(...this.fanOut(envelope, endpoints));
      }
    }

    await this.saveSnapshots(tx, snapshots, changedStreams);
    await this.saveEndpoints(tx, endpoints);
    const wake: string[] = [];
    const fannedOut = await this.saveEnvelopes(tx, envelopes, deliveries);
    if ((await this.rearm(tx, [...replays.values()])) || fannedOut) wake.push('deliveries');
    if (resets.length > 0) {
      await tx.query(
        `insert into webhook_endpoint_health (endpoint_id, consecutive_failures, reset_position)
         select r.endpoint_id, 0, r.position from jsonb_to_recordset($1::jsonb) as r(endpoint_id uuid, position bigint)
         on conflict (endpoint_id) do update set consecutive_failures = 0, reset_position = excluded.reset_position,
           updated_at = now()
         where webhook_endpoint_health.reset_position < excluded.reset_position`,
        [JSON.stringify(resets)],
      );
    }
    if (intents.length > 0) {
      await tx.query(
        `insert into webhook_primary_intents (position, partner_id, partner_revision, url)
         select r.position, r.partner_id, r.revision, r.url
           from jsonb_to_recordset($1::jsonb) as r(position bigint, partner_id uuid, revision bigint, url text)
         on conflict (position) do nothing`,
        [JSON.stringify(intents.map((i) => ({ ...i, partner_id: i.partnerId })))],
      );
      wake.push('primary');
    }
    // Delivered at commit, to every process's worker: new work is due.
    if (wake.length > 0) {
      await tx.query(`select pg_notify($1, $2)`, [WEBHOOK_DELIVERIES_CHANNEL, wake.join(',')]);
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

  /** One delivery per ENABLED endpoint of the envelope's partner that subscribes to its type. */
  private fanOut(envelope: Envelope, endpoints: Map<string, EndpointRow>): Record<string, unknown>[] {
    const due = firstAttemptAt(this.options.retrySchedule, envelope.at).toISOString();
    const rows: Record<string, unknown>[] = [];
    for (const [id, { snapshot }] of endpoints) {
      if (snapshot.partnerId !== envelope.owner.partnerId || snapshot.state !== 'ENABLED') continue;
      if (envelope.only !== null ? envelope.only !== id : !subscribes(snapshot, envelope.type)) continue;
      rows.push({
        id: deliveryIdFor(id, envelope.id),
        endpoint_id: id,
        partner_id: snapshot.partnerId,
        envelope_id: envelope.id,
        event_type: envelope.type,
        position_key: envelope.positionKey.toString(),
        next_attempt_at: due,
        created_at: envelope.at.toISOString(),
      });
    }
    return rows;
  }

  private async loadSnapshots(tx: EntityManager, events: RecordedEvent[]): Promise<Map<string, unknown>> {
    const streams = [...new Set(events.filter((e) => sourceStreamOf(e.stream)).map((e) => e.stream))];
    const snapshots = new Map<string, unknown>();
    if (streams.length === 0) return snapshots;
    const rows = (await tx.query('select stream, snapshot from webhook_snapshots where stream = any($1)', [
      streams,
    ])) as { stream: string; snapshot: unknown }[];
    for (const row of rows) snapshots.set(row.stream, row.snapshot);
    return snapshots;
  }

  /** The endpoints this batch changes, and every endpoint of the partners it has envelopes for. */
  private async loadEndpoints(
    tx: EntityManager,
    events: RecordedEvent[],
    envelopes: Envelope[],
  ): Promise<Map<string, EndpointRow>> {
    const endpoints = new Map<string, EndpointRow>();
    const ids = [
      ...new Set(
        events
          .filter((e) => e.stream.startsWith(WEBHOOK_ENDPOINT_STREAM_PREFIX))
          .map((e) => e.stream.slice(WEBHOOK_ENDPOINT_STREAM_PREFIX.length)),
      ),
    ];
    const partners = [...new Set(envelopes.map((e) => e.owner.partnerId))];
    if (ids.length === 0 && partners.length === 0) return endpoints;
    const rows = (await tx.query(
      `select id, snapshot, created_position::text as created_position from webhook_endpoints
        where id = any($1::uuid[]) or partner_id = any($2::uuid[])`,
      [ids, partners],
    )) as { id: string; snapshot: WebhookEndpoint; created_position: string }[];
    for (const row of rows) {
      endpoints.set(row.id, {
        snapshot: row.snapshot,
        createdPosition: row.created_position,
        changed: false,
      });
    }
    return endpoints;
  }

  private async saveSnapshots(tx: EntityManager, snapshots: Map<string, unknown>, changed: Set<string>) {
    if (changed.size === 0) return;
    await tx.query(
      `insert into webhook_snapshots (stream, snapshot)
       select r.stream, r.snapshot from jsonb_to_recordset($1::jsonb) as r(stream text, snapshot jsonb)
       on conflict (stream) do update set snapshot = excluded.snapshot`,
      [JSON.stringify([...changed].map((stream) => ({ stream, snapshot: snapshots.get(stream) })))],
    );
  }

  private async saveEndpoints(tx: EntityManager, endpoints: Map<string, EndpointRow>) {
    const changed = [...endpoints.values()].filter((row) => row.changed);
    if (changed.length === 0) return;
    await tx.query(
      `insert into webhook_endpoints (id, partner_id, url, enabled_events, state, is_primary, created_position,
         version, snapshot)
       select r.id, r.partner_id, r.url, r.enabled_events, r.state, r.is_primary, r.created_position, r.version,
              r.snapshot
         from jsonb_to_recordset($1::jsonb) as r(id uuid, partner_id uuid, url text, enabled_events text[],
              state text, is_primary boolean, created_position bigint, version integer, snapshot jsonb)
       on conflict (id) do update set url = excluded.url, enabled_events = excluded.enabled_events,
         state = excluded.state, is_primary = excluded.is_primary, version = excluded.version,
         snapshot = excluded.snapshot`,
      [
        JSON.stringify(
          changed.map(({ snapshot, createdPosition }) => ({
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
      ],
    );
  }

  /**
   * Envelopes first; deliveries only for the envelopes this statement inserted, so an event that
   * was fanned out before (a redelivery after a crash, a rebuild) makes no delivery again.
   */
  private async saveEnvelopes(
    tx: EntityManager,
    envelopes: Envelope[],
    deliveries: Record<string, unknown>[],
  ): Promise<boolean> {
    if (envelopes.length === 0) return false;
    const inserted = (await tx.query(
      `insert into webhook_events (id, partner_id, merchant_id, type, created_at, position_key, body)
       select r.id, r.partner_id, r.merchant_id, r.type, r.created_at, r.position_key, r.body
         from jsonb_to_recordset($1::jsonb) as r(id uuid, partner_id uuid, merchant_id uuid, type text,
              created_at timestamptz, position_key bigint, body text)
       on conflict (id) do nothing
       returning id`,
      [
        JSON.stringify(
          envelopes.map((e) => ({
            id: e.id,
            partner_id: e.owner.partnerId,
            merchant_id: e.owner.merchantId,
            type: e.type,
            created_at: e.at.toISOString(),
            position_key: e.positionKey.toString(),
            body: e.body,
          })),
        ),
      ],
    )) as { id: string }[];
    const fresh = new Set(inserted.map((row) => row.id));
    const rows = deliveries.filter((row) => fresh.has(row.envelope_id as string));
    if (rows.length === 0) return false;
    await tx.query(
      `insert into webhook_deliveries (id, endpoint_id, partner_id, envelope_id, event_type, position_key, state,
         next_attempt_at, created_at, updated_at)
       select r.id, r.endpoint_id, r.partner_id, r.envelope_id, r.event_type, r.position_key, 'PENDING',
              r.next_attempt_at, r.created_at, r.created_at
         from jsonb_to_recordset($1::jsonb) as r(id uuid, endpoint_id uuid, partner_id uuid, envelope_id uuid,
              event_type text, position_key bigint, next_attempt_at timestamptz, created_at timestamptz)
       on conflict (endpoint_id, envelope_id) do nothing`,
      [JSON.stringify(rows)],
    );
    return true;
  }

  /** A replay starts a new run of the schedule on the same delivery (same envelope, same id). */
  private async rearm(tx: EntityManager, replays: Replay[]) {
    if (replays.length === 0) return false;
    // An UPDATE answers [rows, count] through TypeORM.
    const [, count] = (await tx.query(
      `update webhook_deliveries d
          set state = 'PENDING', run_attempts = 0, next_attempt_at = r.at, lease_token = null,
              lease_until = null, replayed_position = r.position, updated_at = r.at
         from jsonb_to_recordset($1::jsonb) as r(id uuid, endpoint_id uuid, position bigint, at timestamptz)
        where d.id = r.id and d.endpoint_id = r.endpoint_id and d.replayed_position < r.position`,
      [JSON.stringify(replays)],
    )) as [unknown[], number];
    return count > 0;
  }
}

function subscribes(endpoint: WebhookEndpoint, type: string): boolean {
  const definition = findWebhookEventType(type);
  if (!definition?.subscribable) return false;
  return endpoint.enabledEvents === null || endpoint.enabledEvents.includes(type);
}
