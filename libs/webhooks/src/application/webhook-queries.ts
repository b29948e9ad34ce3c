import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Pool } from 'pg';
import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import { Clock } from '../../../platform/src/clock/clock';
import type { PageRequest } from '../../../platform/src/pagination/pagination';
import { listSnapshots } from '../../../platform/src/pagination/snapshot-list';
import { UUID } from '../../../platform/src/validation/uuid';
import { validationProblem } from '../../../platform/src/validation/validation.pipe';
import { parseInstant } from '../../../transactions/src';
import { DELIVERY_STATES, type DeliveryState } from '../domain/delivery-rules';
import type { WebhookEndpoint } from '../domain/webhook-endpoint';
import { WebhookDeliveryNotFound } from '../domain/webhook-endpoint-errors';
import { WEBHOOK_TEST_EVENT_TYPE, isSubscribableEventType } from '../domain/webhook-event-types';
import { EVENT_RETENTION_DAYS } from './delivery-queue';

type FieldError = { field: string; message: string };

const PAGE_PARAMETERS = ['cursor', 'page_size'];

/**
 * Reads a list's query string strictly: unknown or repeated parameters and blank values are 400
 * naming each parameter, like every list of the API.
 */
function queryReader(query: Record<string, unknown>, filters: readonly string[]) {
  const errors: FieldError[] = [];
  for (const name of Object.keys(query)) {
    if (!filters.includes(name) && !PAGE_PARAMETERS.includes(name)) {
      errors.push({
        field: name.length > 100 ? `${name.slice(0, 100)}…` : name,
        message: 'is not a known parameter',
      });
    }
  }
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') errors.push({ field: name, message: 'must be given once' });
    else if (value.trim() === '') errors.push({ field: name, message: 'must not be blank' });
    else return value;
    return undefined;
  };
  const done = (): void => {
    if (errors.length > 0) throw validationProblem(errors);
  };
  return { errors, single, done };
}

/** A delivery as `GET /webhook-endpoints/{id}/deliveries` answers it (CONTRACT §3). */
export const WebhookDeliverySchema = z
  .strictObject({
    id: Uuid,
    endpoint_id: Uuid,
    event_id: z.string().meta({ description: 'The envelope `id` (stable across retries and replays).' }),
    event_type: z.string(),
    state: z.enum(DELIVERY_STATES),
    attempts: z.array(
      z.strictObject({
        at: Timestamp,
        status_code: z.int().nullable(),
        error: z.string().nullable(),
        duration_ms: z.int().min(0),
      }),
    ),
    next_attempt_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryResource = z.infer<typeof WebhookDeliverySchema>;

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  partner_id: string;
  envelope_id: string;
  event_type: string;
  state: DeliveryState;
  attempts: WebhookDeliveryResource['attempts'];
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
  position_key: string;
}

function toDeliveryResource(row: DeliveryRow): WebhookDeliveryResource {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.envelope_id,
    event_type: row.event_type,
    state: row.state,
    attempts: row.attempts,
    next_attempt_at:
      row.state === 'PENDING' && row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export interface EventFilters {
  type: string | null;
  merchantId: string | null;
  createdFrom: string | null;
  createdTo: string | null;
}

/** What the OpenAPI document says of the `GET /events` filters. */
export const EVENT_FILTER_DOCS = {
  type: { schema: { type: 'string' }, description: 'A subscribable event type (GET /webhook-event-types).' },
  merchant_id: { schema: { type: 'string', format: 'uuid' } },
  created_from: { schema: { type: 'string', format: 'date-time' }, description: 'Inclusive.' },
  created_to: { schema: { type: 'string', format: 'date-time' }, description: 'Inclusive.' },
};

/** What the OpenAPI document says of the deliveries filter. */
export const DELIVERY_FILTER_DOCS = { state: { schema: { type: 'string', enum: [...DELIVERY_STATES] } } };

/** `GET /events` filters: `type` (a subscribable type), `merchant_id`, `created_from`, `created_to`. */
export function parseEventFilters(query: Record<string, unknown>): EventFilters {
  const reader = queryReader(query, ['type', 'merchant_id', 'created_from', 'created_to']);
  const filters: EventFilters = { type: null, merchantId: null, createdFrom: null, createdTo: null };
  const type = reader.single('type');
  if (type !== undefined) {
    if (isSubscribableEventType(type)) filters.type = type;
    else
      reader.errors.push({ field: 'type', message: 'is not an event type (see GET /webhook-event-types)' });
  }
  const merchant = reader.single('merchant_id');
  if (merchant !== undefined) {
    if (UUID.test(merchant)) filters.merchantId = merchant.toLowerCase();
    else reader.errors.push({ field: 'merchant_id', message: 'must be a UUID' });
  }
  for (const [name, round] of [
    ['created_from', 'up'],
    ['created_to', 'down'],
  ] as const) {
    const value = reader.single(name);
    if (value === undefined) continue;
    const bound = parseInstant(value, round);
    if (!bound) {
      reader.errors.push({
        field: name,
        message: 'must be an ISO 8601 date-time with a time zone, such as 2026-11-01T00:00:00Z',
      });
    } else if (name === 'created_from') filters.createdFrom = bound.iso;
    else filters.createdTo = bound.iso;
  }
  if (filters.createdFrom && filters.createdTo && filters.createdFrom > filters.createdTo) {
    reader.errors.push({ field: 'created_from', message: 'must not be later than created_to' });
  }
  reader.done();
  return filters;
}

/** `GET /webhook-endpoints/{id}/deliveries` filter: `state`. */
export function parseDeliveryFilters(query: Record<string, unknown>): { state: DeliveryState | null } {
  const reader = queryReader(query, ['state']);
  const state = reader.single('state');
  if (state !== undefined && !(DELIVERY_STATES as readonly string[]).includes(state)) {
    reader.errors.push({ field: 'state', message: `must be one of ${DELIVERY_STATES.join(', ')}` });
  }
  reader.done();
  return { state: (state as DeliveryState | undefined) ?? null };
}

/** Lists that take only `cursor` and `page_size`. */
export function parseNoFilters(query: Record<string, unknown>): void {
  queryReader(query, []).done();
}

/** A cursor is bound to the filters it was made under (hashed, to stay short). */
export function filtersScope(partnerId: string, filters: object): string {
  const digest = createHash('sha256').update(JSON.stringify(filters)).digest('base64url').slice(0, 22);
  return `partner:${partnerId}:${digest}`;
}

/** The lists of the webhook tables, newest first on a monotonic key (ARCHITECTURE §7). */
@Injectable()
export class WebhookQueries {
  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
  ) {}

  endpoints(partnerId: string, page: PageRequest) {
    return listSnapshots<WebhookEndpoint>(
      this.pool,
      'webhook_endpoints',
      ['partner_id = $1', `state <> 'DELETED'`],
      [partnerId],
      page,
    );
  }

  /**
   * Per subscribable type, how many of the partner's live endpoints (the primary aside) receive
   * it; `except` leaves one endpoint out (the one being changed).
   */
  async endpointsPerType(partnerId: string, except: string | null): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ enabled_events: string[] | null }>(
      `select enabled_events from webhook_endpoints
        where partner_id = $1 and state <> 'DELETED' and not is_primary and ($2::uuid is null or id <> $2)`,
      [partnerId, except],
    );
    const counts = new Map<string, number>();
    for (const { enabled_events } of rows) {
      for (const type of enabled_events ?? ['*']) counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    return counts;
  }

  async deliveries(endpointId: string, state: DeliveryState | null, page: PageRequest) {
    const where = ['endpoint_id = $1', '($2::text is null or state = $2)'];
    const params: unknown[] = [endpointId, state];
    const bounded = page.after === null ? where : [...where, 'position_key < $3'];
    const pageParams = page.after === null ? params : [...params, page.after];
    const [{ rows }, total] = await Promise.all([
      this.pool.query<DeliveryRow>(
        `select id, endpoint_id, partner_id, envelope_id, event_type, state, attempts, next_attempt_at,
                created_at, updated_at, position_key::text as position_key
           from webhook_deliveries where ${bounded.join(' and ')}
          order by position_key desc limit ${page.pageSize + 1}`,
        pageParams,
      ),
      this.pool.query<{ count: string }>(
        `select count(*)::text as count from webhook_deliveries where ${where.join(' and ')}`,
        params,
      ),
    ]);
    return { rows, total: Number(total.rows[0].count), render: toDeliveryResource };
  }

  /** One delivery of the partner's, or 404 `webhook_delivery_not_found`. */
  async delivery(deliveryId: string, partnerId: string): Promise<WebhookDeliveryResource> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `select id, endpoint_id, partner_id, envelope_id, event_type, state, attempts, next_attempt_at,
              created_at, updated_at, position_key::text as position_key
         from webhook_deliveries where id = $1 and partner_id = $2`,
      [deliveryId, partnerId],
    );
    if (!rows[0]) throw new WebhookDeliveryNotFound(deliveryId);
    return toDeliveryResource(rows[0]);
  }

  /** The partner's envelopes of the last 30 days (platform clock), test events aside. */
  async events(partnerId: string, filters: EventFilters, page: PageRequest) {
    const since = new Date(this.clock.now().getTime() - EVENT_RETENTION_DAYS * 24 * 60 * 60 * 1000);
    const where = [
      'partner_id = $1',
      'type <> $2',
      'created_at >= $3',
      '($4::text is null or type = $4)',
      '($5::uuid is null or merchant_id = $5)',
      '($6::timestamptz is null or created_at >= $6)',
      '($7::timestamptz is null or created_at <= $7)',
    ];
    const params: unknown[] = [
      partnerId,
      WEBHOOK_TEST_EVENT_TYPE,
      since,
      filters.type,
      filters.merchantId,
      filters.createdFrom,
      filters.createdTo,
    ];
    const bounded = page.after === null ? where : [...where, 'position_key < $8'];
    const pageParams = page.after === null ? params : [...params, page.after];
    const [{ rows }, total] = await Promise.all([
      this.pool.query<{ body: string; position_key: string }>(
        `select body, position_key::text as position_key from webhook_events
          where ${bounded.join(' and ')} order by position_key desc limit ${page.pageSize + 1}`,
        pageParams,
      ),
      this.pool.query<{ count: string }>(
        `select count(*)::text as count from webhook_events where ${where.join(' and ')}`,
        params,
      ),
    ]);
    return { rows, total: Number(total.rows[0].count) };
  }
}
