/* eslint-disable @typescript-eslint/no-explicit-any -- rows are JSON the tests inspect freely */
import { Client, Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { PostgresEventStore } from '../../libs/event-store/src';
import type { CustomerEvent } from '../../libs/customers/src/domain';
import { FixedClock } from '../../libs/platform/src/clock/clock';
import { createDataSource, runMigrations } from '../../libs/platform/src/database/data-source';
import {
  PROJECTION_ENGINE_ENTITIES,
  PROJECTION_ENGINE_MIGRATIONS,
  ProjectionRunner,
  type ProjectionRunner as Runner,
} from '../../libs/projections/src';
import { DeliveryHandoff, type HandedDelivery } from '../../libs/webhooks/src/application/delivery-handoff';
import { DeliveryQueue } from '../../libs/webhooks/src/application/delivery-queue';
import { deliveryIdFor, envelopeIdFor } from '../../libs/webhooks/src/application/webhook-ids';
import type { WebhookEndpointEvent } from '../../libs/webhooks/src/domain';
import { createTestDatabase, dropTestDatabase } from '../../test/support/database';
import { testMetadata } from '../../test/support/metadata';
import { Webhooks1764650000000 } from './1764650000000-webhooks.migration';
import { WebhookDue1764680000000 } from './1764680000000-webhook-due.migration';
import { WebhookDeliveriesPositionKey1764680000001 } from './1764680000001-webhook-deliveries-position-key.migration';
import { WebhooksProjector } from './webhooks.projector';

const PARTNER = '11111111-1111-4111-8111-111111111111';
const OTHER_PARTNER = '99999999-9999-4999-8999-999999999999';
const MERCHANT = '22222222-2222-4222-8222-222222222222';
const T0 = new Date('2026-11-01T10:00:00.000Z');
let seq = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;

describe('webhooks projector', () => {
  let url: string;
  let pool: Pool;
  let store: PostgresEventStore;
  let db: DataSource;
  const clock = new FixedClock(T0);
  const projector = new WebhooksProjector({
    publicBaseUrl: 'https://pay.example.com',
    retrySchedule: [5, 30],
  });
  const runners: Runner[] = [];

  beforeAll(async () => {
    url = await createTestDatabase('webhooks_projector');
    pool = new Pool({ connectionString: url });
    await PostgresEventStore.migrate(pool);
    store = new PostgresEventStore(pool, clock, { pollIntervalMs: 50 });
    db = createDataSource(url, {
      entities: PROJECTION_ENGINE_ENTITIES,
      migrations: [
        ...PROJECTION_ENGINE_MIGRATIONS,
        Webhooks1764650000000,
        WebhookDue1764680000000,
        WebhookDeliveriesPositionKey1764680000001,
      ],
    });
    await db.initialize();
    await runMigrations(db);
  });
  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    await db?.destroy();
    await store?.close();
    await pool?.end();
    await dropTestDatabase(url);
  });

  const runner = () => {
    const started = new ProjectionRunner({
      store,
      dataSource: db,
      projectors: [projector],
      pollIntervalMs: 50,
      databaseUrl: url,
    });
    runners.push(started);
    return started;
  };
  const append = async (stream: string, event: { type: string; data: unknown }) =>
    (await store.appendToStream(stream, [event], { expectedRevision: 'any', metadata: testMetadata() }))
      .position;

  const endpointCreated = (id: string, fields: Record<string, unknown> = {}): WebhookEndpointEvent => ({
    type: 'WebhookEndpointCreated',
    data: {
      endpointId: id,
      partnerId: PARTNER,
      url: 'https://hooks.example.com/in',
      enabledEvents: null,
      primary: false,
      secret: { sealed: 'c2VhbGVk', createdAt: clock.now().toISOString() },
      createdAt: clock.now().toISOString(),
      ...fields,
    },
  });
  const customerCreated = (id: string, partnerId = PARTNER): CustomerEvent => ({
    type: 'CustomerCreated',
    data: {
      customerId: id,
      merchantId: MERCHANT,
      partnerId,
      email: 'ada@example.com',
      displayName: 'Ada',
      phone: null,
      address: null,
      createdAt: clock.now().toISOString(),
    },
  });
  const rows = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as any[];
  const count = async (table: string) => Number((await rows(`select count(*) from ${table}`))[0].count);

  it('is named webhooks, handles every source and endpoint event, and swaps only endpoints and snapshots', () => {
    expect(projector.name).toBe('webhooks');
    expect(projector.eventTypes).toEqual(
      expect.arrayContaining([
        'CustomerCreated',
        'TransactionReturned',
        'WebhookEndpointCreated',
        'PartnerSettingsChanged',
      ]),
    );
    expect(projector.tables).toEqual(['webhook_endpoints', 'webhook_snapshots']);
  });

  it('events in, one envelope and one delivery per subscribed ENABLED endpoint out, in the checkpoint’s transaction', async () => {
    const all = uuid();
    const returnsOnly = uuid();
    const foreign = uuid();
    await append(`webhook_endpoint-${all}`, endpointCreated(all));
    await append(
      `webhook_endpoint-${returnsOnly}`,
      endpointCreated(returnsOnly, { enabledEvents: ['transaction.returned'] }),
    );
    await append(`webhook_endpoint-${foreign}`, endpointCreated(foreign, { partnerId: OTHER_PARTNER }));
    const listen = new Client({ connectionString: url });
    await listen.connect();
    const notified = new Promise<string>((resolve) =>
      listen.on('notification', (n) => resolve(n.payload ?? '')),
    );
    await listen.query('listen webhook_deliveries');

    const customer = uuid();
    const position = await append(`customer-${customer}`, customerCreated(customer));
    const live = runner();
    await live.start();
    expect(await live.waitFor(position, ['webhooks'])).toBe(true);
    expect(await notified).toBe('deliveries');
    await listen.end();

    const [event] = await store.readStream(`customer-${customer}`);
    const envelopeId = envelopeIdFor(event.id, 'customer.created');
    const [envelope] = await rows('select * from webhook_events where id = $1', [envelopeId]);
    expect(JSON.parse(envelope.body)).toEqual({
      id: envelopeId,
      type: 'customer.created',
      created_at: T0.toISOString(),
      api_version: '2026-09-01',
      partner_id: PARTNER,
      merchant_id: MERCHANT,
      data: { object: expect.objectContaining({ id: customer, email: 'ada@example.com', version: 1 }) },
    });
    const deliveries = await rows('select * from webhook_deliveries where envelope_id = $1', [envelopeId]);
    expect(deliveries).toEqual([
      expect.objectContaining({
        id: deliveryIdFor(all, envelopeId),
        endpoint_id: all,
        state: 'PENDING',
        attempts: [],
        // WEBHOOK_RETRY_SCHEDULE's first entry (5 s here) delays the first attempt.
        next_attempt_at: new Date(T0.getTime() + 5000),
      }),
    ]);
    // Queued for the worker, in the same transaction, unleased.
    expect(await rows('select * from webhook_due where delivery_id = $1', [deliveries[0].id])).toEqual([
      {
        delivery_id: deliveries[0].id,
        endpoint_id: all,
        due_at: new Date(T0.getTime() + 5000),
        lease_token: null,
        lease_until: null,
      },
    ]);
    await live.stop();
  });

  it('builds data.object from the aggregate at that event, not as it is now', async () => {
    const customer = uuid();
    const live = runner();
    await live.start();
    await append(`customer-${customer}`, customerCreated(customer));
    const position = await append(`customer-${customer}`, {
      type: 'CustomerUpdated',
      data: {
        customerId: customer,
        merchantId: MERCHANT,
        partnerId: PARTNER,
        email: 'grace@example.com',
        updatedAt: T0.toISOString(),
      },
    });
    await live.waitFor(position, ['webhooks']);
    const bodies = await rows(
      `select type, body from webhook_events where body like $1 order by position_key`,
      [`%${customer}%`],
    );
    expect(
      bodies.map((b) => [
        b.type,
        JSON.parse(b.body).data.object.email,
        JSON.parse(b.body).data.object.version,
      ]),
    ).toEqual([
      ['customer.created', 'ada@example.com', 1],
      ['customer.updated', 'grace@example.com', 2],
    ]);
    await live.stop();
  });

  it('a redelivered or restarted batch writes no second envelope or delivery', async () => {
    const before = { events: await count('webhook_events'), deliveries: await count('webhook_deliveries') };
    const events = await store.readAll({ fromPosition: 1n, limit: 1000 });
    // The same events once more, as a redelivery would bring them (rolled back afterwards: the
    // folds of the snapshots are not meant to see an event twice, only the delivery tables are).
    const again = await db
      .transaction(async (tx) => {
        await projector.handleBatch(tx, events);
        const [counts] = await tx.query(
          'select (select count(*) from webhook_events)::int as events, (select count(*) from webhook_deliveries)::int as deliveries',
        );
        throw Object.assign(new Error('roll back'), { counts });
      })
      .catch((error: { counts?: unknown }) => error.counts);
    expect(again).toEqual(before);
    const restarted = runner();
    await restarted.start();
    await restarted.waitFor(await store.headPosition(), ['webhooks']);
    expect({ events: await count('webhook_events'), deliveries: await count('webhook_deliveries') }).toEqual(
      before,
    );
    await restarted.stop();
  });

  it('a replay re-arms its delivery once: a new run, the same row; a test event reaches its endpoint only', async () => {
    const endpoint = uuid();
    await append(
      `webhook_endpoint-${endpoint}`,
      endpointCreated(endpoint, { enabledEvents: ['customer.deleted'] }),
    );
    const live = runner();
    await live.start();
    const customer = uuid();
    await append(`customer-${customer}`, customerCreated(customer));
    const deleted = await append(`customer-${customer}`, {
      type: 'CustomerDeleted',
      data: { customerId: customer, merchantId: MERCHANT, partnerId: PARTNER, deletedAt: T0.toISOString() },
    });
    await live.waitFor(deleted, ['webhooks']);
    const [delivery] = await rows('select * from webhook_deliveries where endpoint_id = $1', [endpoint]);
    expect(delivery.event_type).toBe('customer.deleted');
    // What the worker writes for a delivery that succeeded: its history, and out of the queue.
    await pool.query(
      `update webhook_deliveries set state = 'SUCCEEDED', run_attempts = 1, next_attempt_at = null,
         attempts = '[{"at":"2026-11-01T10:00:05.000Z","status_code":200,"error":null,"duration_ms":3}]' where id = $1`,
      [delivery.id],
    );
    await pool.query('delete from webhook_due where delivery_id = $1', [delivery.id]);
    clock.advance(60_000);
    const replay = await append(`webhook_endpoint-${endpoint}`, {
      type: 'WebhookDeliveryReplayRequested',
      data: {
        endpointId: endpoint,
        partnerId: PARTNER,
        deliveryId: delivery.id,
        requestedAt: clock.now().toISOString(),
      },
    });
    const testId = uuid();
    const test = await append(`webhook_endpoint-${endpoint}`, {
      type: 'WebhookEndpointTestRequested',
      data: { endpointId: endpoint, partnerId: PARTNER, testId, requestedAt: clock.now().toISOString() },
    });
    await live.waitFor(test, ['webhooks']);
    const [rearmed] = await rows('select * from webhook_deliveries where id = $1', [delivery.id]);
    expect(rearmed).toMatchObject({
      state: 'PENDING',
      run_attempts: 0,
      replayed_position: String(replay),
      next_attempt_at: new Date(clock.now().getTime() + 5000),
    });
    expect(rearmed.attempts).toHaveLength(1); // history kept
    expect(
      await rows('select due_at, lease_token from webhook_due where delivery_id = $1', [delivery.id]),
    ).toEqual([{ due_at: new Date(clock.now().getTime() + 5000), lease_token: null }]);
    const tests = await rows(
      `select endpoint_id, envelope_id from webhook_deliveries where event_type = 'webhook_endpoint.test'`,
    );
    expect(tests).toEqual([{ endpoint_id: endpoint, envelope_id: testId }]);
    const [testEnvelope] = await rows('select body from webhook_events where id = $1', [testId]);
    expect(JSON.parse(testEnvelope.body)).toMatchObject({
      id: testId,
      merchant_id: null,
      data: { object: { id: endpoint } },
    });
    await live.stop();
  });

  it('with a worker attached, fresh deliveries due at once go to it leased, after their commit, waking nobody', async () => {
    const handoff = new DeliveryHandoff();
    const handed: HandedDelivery[] = [];
    handoff.attach(15, (deliveries) => handed.push(...deliveries));
    const immediate = new WebhooksProjector({
      publicBaseUrl: 'https://pay.example.com',
      retrySchedule: [0, 30],
      handoff,
    });
    const endpoint = uuid();
    await append(
      `webhook_endpoint-${endpoint}`,
      endpointCreated(endpoint, {
        enabledEvents: ['customer.created'],
        url: 'https://hooks.example.com/now',
      }),
    );
    const listen = new Client({ connectionString: url });
    await listen.connect();
    const notified: string[] = [];
    listen.on('notification', (n) => notified.push(n.payload ?? ''));
    await listen.query('listen webhook_deliveries');
    const live = new ProjectionRunner({
      store,
      dataSource: db,
      projectors: [immediate],
      pollIntervalMs: 50,
      databaseUrl: url,
    });
    runners.push(live);
    await live.start();
    try {
      const customer = uuid();
      await live.waitFor(await append(`customer-${customer}`, customerCreated(customer)), ['webhooks']);
      const [delivery] = await rows(
        `select d.id, w.lease_token, w.lease_until, v.body from webhook_deliveries d
           join webhook_due w on w.delivery_id = d.id join webhook_events v on v.id = d.envelope_id
          where d.endpoint_id = $1`,
        [endpoint],
      );
      expect(delivery.lease_until).not.toBeNull();
      expect(handed.find((h) => h.endpointId === endpoint)).toEqual({
        id: delivery.id,
        leaseToken: delivery.lease_token,
        runAttempts: 0,
        endpointId: endpoint,
        partnerId: PARTNER,
        eventType: 'customer.created',
        envelopeId: expect.any(String),
        url: 'https://hooks.example.com/now',
        endpoint: expect.objectContaining({ id: endpoint, state: 'ENABLED' }),
        body: delivery.body,
        dueAt: clock.now(),
      });
      // Every fresh delivery of the batch was leased here: no other worker is woken for them.
      const [{ unleased }] = await rows(
        'select count(*)::int as unleased from webhook_due where lease_token is null and delivery_id = any($1)',
        [handed.map((h) => h.id)],
      );
      expect(unleased).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(notified).toEqual([]);

      // Detached (the worker stopping): the next fresh delivery is queued unleased, for any claim.
      handoff.detach();
      const count = handed.length;
      const other = uuid();
      await live.waitFor(await append(`customer-${other}`, customerCreated(other)), ['webhooks']);
      const [later] = await rows(
        `select w.lease_token from webhook_deliveries d join webhook_due w on w.delivery_id = d.id
          where d.endpoint_id = $1 and d.id <> $2`,
        [endpoint, delivery.id],
      );
      expect(later).toEqual({ lease_token: null });
      expect(handed).toHaveLength(count);
      for (let waited = 0; notified.length === 0 && waited < 2000; waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(notified).toEqual(['deliveries']);
    } finally {
      await live.stop();
      await listen.end();
    }
  });

  it('queues each webhook_url change of a partner for the primary endpoint', async () => {
    const live = runner();
    await live.start();
    const partnerStream = `partner-${OTHER_PARTNER}`;
    await append(partnerStream, {
      type: 'PartnerSettingsChanged',
      data: { partnerId: OTHER_PARTNER, ipAllowlist: [], changedAt: T0.toISOString() },
    });
    const set = await append(partnerStream, {
      type: 'PartnerSettingsChanged',
      data: {
        partnerId: OTHER_PARTNER,
        webhookUrl: 'https://hooks.example.com/primary',
        changedAt: T0.toISOString(),
      },
    });
    const cleared = await append(partnerStream, {
      type: 'PartnerSettingsChanged',
      data: { partnerId: OTHER_PARTNER, webhookUrl: null, changedAt: T0.toISOString() },
    });
    await live.waitFor(cleared, ['webhooks']);
    expect(
      await rows(
        'select position::text, partner_revision::text, url from webhook_primary_intents order by position',
      ),
    ).toEqual([
      { position: String(set), partner_revision: '1', url: 'https://hooks.example.com/primary' },
      { position: String(cleared), partner_revision: '2', url: null },
    ]);
    await live.stop();
  });

  it('rebuild: endpoints and snapshots come back; deliveries, their attempts and replays are neither repeated nor lost', async () => {
    const before = await rows(
      'select id, state, attempts, run_attempts, replayed_position from webhook_deliveries order by id',
    );
    const envelopes = await count('webhook_events');
    const queued = await rows('select * from webhook_due order by delivery_id');
    expect(queued.length).toBeGreaterThan(0);
    const endpoints = await rows(
      'select id, state, version, enabled_events from webhook_endpoints order by id',
    );
    const live = runner();
    await live.start();
    await live.rebuild('webhooks');
    expect(
      await rows(
        'select id, state, attempts, run_attempts, replayed_position from webhook_deliveries order by id',
      ),
    ).toEqual(before);
    expect(await count('webhook_events')).toBe(envelopes);
    expect(await rows('select * from webhook_due order by delivery_id')).toEqual(queued);
    expect(
      await rows('select id, state, version, enabled_events from webhook_endpoints order by id'),
    ).toEqual(endpoints);
    await live.stop();
  });

  it('after pruning, a rebuild does not bring pruned events back as new envelopes or deliveries', async () => {
    // Finished deliveries go, and so do pending ones whose endpoint is gone.
    const [pending] = await rows(
      `select endpoint_id from webhook_deliveries where state = 'PENDING' limit 1`,
    );
    await pool.query(
      `update webhook_deliveries set state = 'SUCCEEDED', next_attempt_at = null where endpoint_id <> $1`,
      [pending.endpoint_id],
    );
    await pool.query('delete from webhook_due where endpoint_id <> $1', [pending.endpoint_id]);
    expect(await count('webhook_due')).toBeGreaterThan(0); // the pending one is queued
    const deleting = runner();
    await deleting.start();
    const deleted = await append(`webhook_endpoint-${pending.endpoint_id}`, {
      type: 'WebhookEndpointDeleted',
      data: { endpointId: pending.endpoint_id, partnerId: PARTNER, deletedAt: clock.now().toISOString() },
    });
    await deleting.waitFor(deleted, ['webhooks']);
    await deleting.stop();
    // Its pending delivery stays in the history, out of the queue: no claim walks past it any more.
    expect(
      await rows('select state from webhook_deliveries where endpoint_id = $1', [pending.endpoint_id]),
    ).toEqual(expect.arrayContaining([{ state: 'PENDING' }]));
    expect(await count('webhook_due')).toBe(0);
    const pruned = await new DeliveryQueue(pool).prune(new Date(clock.now().getTime() + 1000));
    expect(pruned).toBeGreaterThan(0);
    expect(await count('webhook_events')).toBe(0);
    expect(await count('webhook_deliveries')).toBe(0);
    expect(await count('webhook_due')).toBe(0);
    const live = runner();
    await live.start();
    await live.rebuild('webhooks');
    expect(await count('webhook_events')).toBe(0);
    expect(await count('webhook_deliveries')).toBe(0);
    // New events still fan out.
    const customer = uuid();
    const position = await append(`customer-${customer}`, customerCreated(customer));
    await live.waitFor(position, ['webhooks']);
    expect(await count('webhook_events')).toBe(1);
    await live.stop();
  });
});
