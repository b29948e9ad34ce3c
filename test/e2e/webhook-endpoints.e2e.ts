/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';
import { draftMerchant } from '../support/payments';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The webhook endpoints API (CONTRACT §3) on the real app, with real receivers: create (the
 * secret shown once, sealed at rest), list, read, PATCH, DELETE, rotate-secret (both signatures
 * for 24 hours), the primary endpoint that follows webhook_url, tenancy, the catalog and metadata.
 * Every signature is checked with the `standardwebhooks` package, never with our own code.
 */
describe('webhook endpoints', () => {
  const platform = useTestPlatform({ WEBHOOK_TIMEOUT_MS: '1000' });
  const receivers: WebhookReceiver[] = [];
  const receiver = async () => {
    const started = await WebhookReceiver.start();
    receivers.push(started);
    return started;
  };
  afterAll(async () => Promise.all(receivers.map((r) => r.close())));

  const newMerchant = (partner: TestPartner, name = 'Corner Bakery') => draftMerchant(partner, name);
  const advanceClock = async (seconds: number) =>
    expect(
      (await platform().operator.post('/platform/sandbox/clock', { advance_seconds: seconds })).status,
    ).toBe(200);
  const verify = (secret: string, received: { body: string; headers: Record<string, unknown> }) =>
    new Webhook(secret).verify(received.body, received.headers as Record<string, string>);

  it('create: 201 with the endpoint and a whsec_ secret shown once; deliveries verify with it', async () => {
    const hooks = await receiver();
    const partner = await platform().newPartner();
    const created = await partner.client.post('/webhook-endpoints', { url: hooks.url() });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(UUID),
      partner_id: partner.id,
      url: hooks.url(),
      enabled_events: ['*'],
      state: 'ENABLED',
      primary: false,
      secret_rotated_at: expect.stringMatching(ISO_TIMESTAMP),
      previous_secret_expires_at: null,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
      version: 1,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const secret = created.body.secret as string;
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const merchantId = await newMerchant(partner);
    const [got] = await hooks.waitFor((r) => r.length >= 1);
    const envelope = verify(secret, got) as any;
    expect(envelope).toEqual({
      id: expect.stringMatching(UUID),
      type: 'merchant.created',
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      api_version: '2026-09-01',
      partner_id: partner.id,
      merchant_id: merchantId,
      data: {
        object: expect.objectContaining({ id: merchantId, state: 'DRAFT', business_name: 'Corner Bakery' }),
      },
    });
    expect(got.headers['webhook-id']).toBe(envelope.id);

    // The secret is never shown again.
    const read = await partner.client.get(`/webhook-endpoints/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(JSON.stringify((await partner.client.get('/webhook-endpoints')).body)).not.toContain(secret);
  });

  it('the secret is never stored or recorded in clear: the events and tables hold it sealed', async () => {
    const hooks = await receiver();
    const partner = await platform().newPartner();
    const created = await partner.client.post('/webhook-endpoints', { url: hooks.url() });
    const key = (created.body.secret as string).slice('whsec_'.length);
    const hex = Buffer.from(key, 'base64').toString('hex');
    const stream = await platform().operator.get(
      `/platform/streams/webhook_endpoint-${created.body.id}/events`,
    );
    expect(stream.status).toBe(200);
    expect(stream.body.data[0].data.secret).toEqual({
      sealed: expect.any(String),
      createdAt: expect.any(String),
    });
    const db = new Client({ connectionString: platform().service.infra.databaseUrl });
    await db.connect();
    try {
      for (const table of [
        'event_store.events',
        'webhook_endpoints',
        'webhook_events',
        'webhook_deliveries',
      ]) {
        const { rows } = await db.query(
          `select count(*)::int as n from ${table} t where t::text like $1 or t::text like $2`,
          [`%${key}%`, `%${hex}%`],
        );
        expect({ table, n: rows[0].n }).toEqual({ table, n: 0 });
      }
    } finally {
      await db.end();
    }
  });

  it('a retried create (same Idempotency-Key) answers the same endpoint and the same secret', async () => {
    const partner = await platform().newPartner();
    const body = { url: 'http://127.0.0.1:9/hooks' };
    const first = await partner.client.post('/webhook-endpoints', body, { idempotencyKey: 'create-hook-1' });
    const again = await partner.client.post('/webhook-endpoints', body, { idempotencyKey: 'create-hook-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('x-idempotent-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await partner.client.get('/webhook-endpoints')).body.pagination.total_count).toBe(1);
  });

  it('enabled_events: only subscribed types are delivered; an unknown type is 400 naming the field', async () => {
    const hooks = await receiver();
    const partner = await platform().newPartner();
    const bad = await partner.client.post('/webhook-endpoints', {
      url: hooks.url(),
      enabled_events: ['merchant.created', 'merchant.teleported'],
    });
    expectValidationError(bad, ['enabled_events[1]']);
    expectValidationError(
      await partner.client.post('/webhook-endpoints', { url: hooks.url(), enabled_events: [] }),
      ['enabled_events'],
    );
    const created = await partner.client.post('/webhook-endpoints', {
      url: hooks.url(),
      enabled_events: ['merchant.submitted'],
    });
    expect(created.body.enabled_events).toEqual(['merchant.submitted']);
    const merchantId = await newMerchant(partner);
    expect((await partner.client.post(`/merchants/${merchantId}/submit`)).status).toBe(200);
    await hooks.waitFor((r) => r.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hooks.received.map((r) => r.envelope.type)).toEqual(['merchant.submitted']);
    expect((hooks.received[0].envelope as any).data.object.state).toBe('SUBMITTED');
  });

  it('PATCH changes url and enabled_events; DELETE answers 204 and the endpoint is gone', async () => {
    const first = await receiver();
    const second = await receiver();
    const partner = await platform().newPartner();
    const created = await partner.client.post('/webhook-endpoints', { url: first.url() });
    const id = created.body.id as string;
    const patched = await partner.client.patch(`/webhook-endpoints/${id}`, {
      url: second.url('/moved'),
      enabled_events: ['merchant.created'],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      url: second.url('/moved'),
      enabled_events: ['merchant.created'],
      version: 2,
    });
    expectValidationError(await partner.client.patch(`/webhook-endpoints/${id}`, { url: 'ftp://x.test/' }), [
      'url',
    ]);
    expectValidationError(await partner.client.patch(`/webhook-endpoints/${id}`, { colour: 'blue' }), [
      'colour',
    ]);
    await newMerchant(partner);
    await second.waitFor((r) => r.length >= 1);
    expect(first.received).toHaveLength(0);
    expect(second.received[0].headers['webhook-id']).toBeDefined();

    const removed = await partner.client.delete(`/webhook-endpoints/${id}`);
    expect(removed.status).toBe(204);
    expectProblem(await partner.client.get(`/webhook-endpoints/${id}`), 404, 'webhook_endpoint_not_found');
    expect((await partner.client.get('/webhook-endpoints')).body.data).toEqual([]);
    await newMerchant(partner);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.received).toHaveLength(1);
  });

  it('rotate-secret: 201 {secret}; for 24 hours each delivery carries both signatures, then the new one only', async () => {
    const hooks = await receiver();
    const partner = await platform().newPartner();
    const created = await partner.client.post('/webhook-endpoints', { url: hooks.url() });
    const oldSecret = created.body.secret as string;
    const rotated = await partner.client.post(`/webhook-endpoints/${created.body.id}/rotate-secret`);
    expect(rotated.status).toBe(201);
    expect(rotated.body).toEqual({ secret: expect.stringMatching(/^whsec_/) });
    const newSecret = rotated.body.secret as string;
    expect(newSecret).not.toBe(oldSecret);

    await newMerchant(partner, 'During the overlap');
    const [during] = await hooks.waitFor((r) => r.length >= 1);
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(oldSecret, during)).toBeDefined();
    expect(verify(newSecret, during)).toBeDefined();
    const endpoint = await partner.client.get(`/webhook-endpoints/${created.body.id}`);
    expect(endpoint.body.previous_secret_expires_at).toMatch(ISO_TIMESTAMP);

    await advanceClock(24 * 60 * 60);
    await newMerchant(partner, 'After the overlap');
    const after = (await hooks.waitFor((r) => r.length >= 2))[1];
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(newSecret, after)).toBeDefined();
    expect(() => verify(oldSecret, after)).toThrow(/No matching signature/);
  });

  it('webhook_url creates, re-points and removes the primary endpoint; its secret comes from rotate-secret', async () => {
    const first = await receiver();
    const second = await receiver();
    const partner = await platform().newPartner();
    const config = `/config/partners/${partner.id}`;
    expect((await partner.client.put(config, { webhook_url: first.url() })).status).toBe(200);
    const listed = await eventually(
      () => partner.client.get('/webhook-endpoints'),
      (res) => res.body.data.length === 1,
    );
    const primary = listed.body.data[0];
    expect(primary).toMatchObject({
      url: first.url(),
      primary: true,
      enabled_events: ['*'],
      state: 'ENABLED',
    });

    const { secret } = (await partner.client.post(`/webhook-endpoints/${primary.id}/rotate-secret`)).body;
    await newMerchant(partner);
    const [got] = await first.waitFor((r) => r.length >= 1);
    expect(verify(secret, got)).toMatchObject({ type: 'merchant.created' });

    // The url and the removal belong to webhook_url.
    expectProblem(
      await partner.client.patch(`/webhook-endpoints/${primary.id}`, { url: second.url() }),
      409,
      'primary_webhook_endpoint_managed',
    );
    expectProblem(
      await partner.client.delete(`/webhook-endpoints/${primary.id}`),
      409,
      'primary_webhook_endpoint_managed',
    );

    expect((await partner.client.put(config, { webhook_url: second.url() })).status).toBe(200);
    await eventually(
      () => partner.client.get(`/webhook-endpoints/${primary.id}`),
      (res) => res.body.url === second.url(),
    );
    await newMerchant(partner);
    await second.waitFor((r) => r.length >= 1);
    expect(first.received).toHaveLength(1);

    expect((await partner.client.put(config, { webhook_url: '' })).status).toBe(200);
    await eventually(
      () => partner.client.get('/webhook-endpoints'),
      (res) => res.body.data.length === 0,
    );
    expectProblem(
      await partner.client.get(`/webhook-endpoints/${primary.id}`),
      404,
      'webhook_endpoint_not_found',
    );

    // Set again: the primary endpoint comes back (same id, a new secret).
    expect((await partner.client.put(config, { webhook_url: first.url('/again') })).status).toBe(200);
    const back = await eventually(
      () => partner.client.get(`/webhook-endpoints/${primary.id}`),
      (res) => res.status === 200,
    );
    expect(back.body).toMatchObject({ url: first.url('/again'), primary: true });
  });

  it('webhook_url follows the same URL rules as an endpoint url', async () => {
    const partner = await platform().newPartner();
    const res = await partner.client.put(`/config/partners/${partner.id}`, {
      webhook_url: 'http://169.254.169.254/x',
    });
    expectValidationError(res, ['webhook_url']);
    expectValidationError(
      await partner.client.post('/webhook-endpoints', { url: 'http://169.254.169.254/x' }),
      ['url'],
    );
  });

  it('another partner’s endpoint and deliveries are 404; writes need the webhook:write scope', async () => {
    const owner = await platform().newPartner();
    const other = await platform().newPartner();
    const created = await owner.client.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks' });
    const id = created.body.id as string;
    for (const res of [
      await other.client.get(`/webhook-endpoints/${id}`),
      await other.client.patch(`/webhook-endpoints/${id}`, { enabled_events: ['*'] }),
      await other.client.delete(`/webhook-endpoints/${id}`),
      await other.client.post(`/webhook-endpoints/${id}/rotate-secret`),
      await other.client.post(`/webhook-endpoints/${id}/test`),
      await other.client.get(`/webhook-endpoints/${id}/deliveries`),
    ]) {
      expectProblem(res, 404, 'webhook_endpoint_not_found');
    }
    const readOnly = await platform().newPartner({ scopes: ['webhook:read'] });
    expectProblem(
      await readOnly.client.post('/webhook-endpoints', { url: 'http://127.0.0.1:9/x' }),
      403,
      'unauthorized',
    );
    expect((await readOnly.client.get('/webhook-endpoints')).status).toBe(200);
  });

  it('lists are paged newest first and refuse unknown or malformed parameters, naming them', async () => {
    const partner = await platform().newPartner();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await partner.client.post('/webhook-endpoints', { url: `http://127.0.0.1:9/h${i}` })).body.id,
      );
    const page1 = await partner.client.get('/webhook-endpoints?page_size=2');
    expect(page1.body.data.map((e: any) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.pagination).toMatchObject({ has_more: true, total_count: 3 });
    const page2 = await partner.client.get(
      `/webhook-endpoints?page_size=2&cursor=${page1.body.pagination.next_cursor}`,
    );
    expect(page2.body.data.map((e: any) => e.id)).toEqual([ids[0]]);
    expectValidationError(await partner.client.get('/webhook-endpoints?colour=blue'), ['colour']);
    expectValidationError(await partner.client.get('/webhook-endpoints?page_size=0'), ['page_size']);
    expectValidationError(await partner.client.get(`/webhook-endpoints/${ids[0]}/deliveries?state=LOST`), [
      'state',
    ]);
    expectValidationError(await partner.client.get('/webhook-event-types?page_size=2'), ['page_size']);
    expectValidationError(await partner.client.get('/webhook-endpoints/not-a-uuid'), ['endpointId']);
  });

  it('the per-event-type limit: the eleventh endpoint receiving a type is 422', async () => {
    const partner = await platform().newPartner();
    for (let i = 0; i < 9; i++) {
      expect(
        (await partner.client.post('/webhook-endpoints', { url: `http://127.0.0.1:9/all${i}` })).status,
      ).toBe(201);
    }
    const tenth = await partner.client.post('/webhook-endpoints', {
      url: 'http://127.0.0.1:9/returns',
      enabled_events: ['transaction.returned'],
    });
    expect(tenth.status).toBe(201);
    const eleventh = await partner.client.post('/webhook-endpoints', {
      url: 'http://127.0.0.1:9/more',
      enabled_events: ['customer.created', 'transaction.returned'],
    });
    expectProblem(eleventh, 422, 'webhook_endpoint_limit_reached');
    // Another type still has room.
    expect(
      (
        await partner.client.post('/webhook-endpoints', {
          url: 'http://127.0.0.1:9/c',
          enabled_events: ['customer.created'],
        })
      ).status,
    ).toBe(201);
  });

  it('GET /webhook-event-types lists every type with its description and object', async () => {
    const partner = await platform().newPartner();
    const res = await partner.client.get('/webhook-event-types');
    expect(res.status).toBe(200);
    const types = res.body.data.map((t: any) => t.type);
    for (const spec of [
      'hpp_session.completed',
      'transaction.returned',
      'transaction.disputed',
      'chargeback.received',
      'three_ds.completed',
      'merchant.live',
      'stored_credential.created',
      'settlement_batch.opened',
      'webhook_endpoint.test',
    ]) {
      expect(types).toContain(spec);
    }
    expect(res.body.data.find((t: any) => t.type === 'transaction.returned')).toEqual({
      type: 'transaction.returned',
      description: expect.stringMatching(/R-code/),
      object: 'transaction',
      subscribable: true,
    });
  });

  it('GET /webhook-metadata serves the policy in force and the per-event-type limit', async () => {
    const partner = await platform().newPartner();
    const res = await partner.client.get('/webhook-metadata');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      retry_policy: {
        attempts: 4,
        schedule_seconds: [0, 30, 300, 1800],
        timeout_ms: 1000,
        never_retried: [400, 401, 404, 405, 410, 422],
        retry_after: { forms: ['delta-seconds'], max_seconds: 86400 },
        response_body_limit_bytes: 65536,
      },
      signature: { scheme: 'standard-webhooks', rotation_overlap_seconds: 86400 },
      replay_limit: { replays: 100, per_seconds: 3600 },
      suspension: { after_consecutive_failed_deliveries: 10 },
      event_type_limit: { max_endpoints_per_event_type: 10 },
      event_retention_days: 30,
    });
  });
});
