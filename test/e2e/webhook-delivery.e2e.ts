/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { createServer } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP } from '../support/problems';
import { activeMerchant, draftMerchant, transactionStreams, vaultedCredential } from '../support/payments';
import { testMetadata } from '../support/metadata';
import { answer, eventually, WebhookReceiver, type Behaviour } from '../support/webhook-receiver';

const TIMEOUT_MS = 500;

/**
 * Delivery rules 1–9 against real local receivers on the real app: every kind of answer, the
 * schedule on the sandbox clock, Retry-After, replay and its limit, suspension, the test event,
 * GET /events. Signatures are verified with `standardwebhooks`.
 */
describe('webhook delivery', () => {
  const platform = useTestPlatform({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
  const receivers: WebhookReceiver[] = [];
  afterAll(async () => Promise.all(receivers.map((r) => r.close())));

  interface Setup {
    hooks: WebhookReceiver;
    partner: TestPartner;
    endpointId: string;
    secret: string;
  }

  /** A partner with one endpoint on a fresh receiver, subscribed to merchant.created only. */
  async function setup(
    behaviour: Behaviour = answer(200),
    url?: (hooks: WebhookReceiver) => string,
  ): Promise<Setup> {
    const hooks = await WebhookReceiver.start(behaviour);
    receivers.push(hooks);
    const partner = await platform().newPartner();
    const created = await partner.client.post('/webhook-endpoints', {
      url: url ? url(hooks) : hooks.url(),
      enabled_events: ['merchant.created'],
    });
    expect(created.status).toBe(201);
    return { hooks, partner, endpointId: created.body.id, secret: created.body.secret };
  }

  /** A partner-visible event: a new merchant (merchant.created). */
  const emit = (partner: TestPartner, name = 'Corner Bakery') => draftMerchant(partner, name);
  const deliveries = async (s: Setup) =>
    (await s.partner.client.get(`/webhook-endpoints/${s.endpointId}/deliveries`)).body.data;
  /** The endpoint's only delivery once `check` accepts it. */
  const deliveryWhen = async (s: Setup, check: (delivery: any) => boolean) =>
    (
      await eventually(
        () => deliveries(s),
        (list) => list.length === 1 && check(list[0]),
      )
    )[0];
  const advanceClock = async (seconds: number) =>
    expect(
      (await platform().operator.post('/platform/sandbox/clock', { advance_seconds: seconds })).status,
    ).toBe(200);
  const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;
  const settle = () => new Promise((resolve) => setTimeout(resolve, 700));

  it('2xx: SUCCEEDED after one attempt, signed and verifiable with standardwebhooks', async () => {
    const s = await setup(answer(204));
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.state === 'SUCCEEDED');
    expect(delivery).toEqual({
      id: expect.any(String),
      endpoint_id: s.endpointId,
      event_id: s.hooks.received[0].envelope.id,
      event_type: 'merchant.created',
      state: 'SUCCEEDED',
      attempts: [
        {
          at: expect.stringMatching(ISO_TIMESTAMP),
          status_code: 204,
          error: null,
          duration_ms: expect.any(Number),
        },
      ],
      next_attempt_at: null,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
      updated_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    const [got] = s.hooks.received;
    expect(new Webhook(s.secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({
      id: delivery.event_id,
      type: 'merchant.created',
    });
    expect(got.headers['content-type']).toBe('application/json');
  });

  it.each([400, 401, 404, 405, 410, 422])('%i: FAILED at once, never retried (rule 5)', async (status) => {
    const s = await setup(answer(status));
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.state === 'FAILED');
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([status]);
    expect(delivery.next_attempt_at).toBeNull();
    await advanceClock(31);
    await settle();
    expect(s.hooks.received).toHaveLength(1);
  });

  it.each([403, 408, 429, 500, 502, 503])('%i: retried after 30 seconds (rule 4)', async (status) => {
    const s = await setup(answer(status));
    await emit(s.partner);
    const first = await deliveryWhen(s, (d) => d.attempts.length === 1);
    expect(first.state).toBe('PENDING');
    expect(seconds(first.attempts[0].at, first.next_attempt_at)).toBe(30);
    expect(first.attempts[0]).toMatchObject({ status_code: status, error: null });
  });

  it('the schedule runs on the sandbox clock: 0 s, 30 s, 5 min, 30 min, then EXHAUSTED (rules 3, 7)', async () => {
    const s = await setup(answer(500));
    await emit(s.partner);
    await deliveryWhen(s, (d) => d.attempts.length === 1);
    await advanceClock(29);
    await settle();
    expect(s.hooks.received).toHaveLength(1); // not due yet
    await advanceClock(1);
    await deliveryWhen(s, (d) => d.attempts.length === 2);
    await advanceClock(300);
    await deliveryWhen(s, (d) => d.attempts.length === 3);
    await advanceClock(1800);
    const done = await deliveryWhen(s, (d) => d.state === 'EXHAUSTED');
    const at = done.attempts.map((a: any) => a.at);
    expect(done.attempts).toHaveLength(4);
    expect(seconds(at[0], at[1])).toBeGreaterThanOrEqual(30);
    expect(seconds(at[1], at[2])).toBeGreaterThanOrEqual(300);
    expect(seconds(at[2], at[3])).toBeGreaterThanOrEqual(1800);
    expect(done.next_attempt_at).toBeNull();
    // The id is the same on every attempt.
    expect(new Set(s.hooks.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    await advanceClock(3600);
    await settle();
    expect(s.hooks.received).toHaveLength(4);
  });

  it('a slow receiver is cut at WEBHOOK_TIMEOUT_MS and retried (rule 1)', async () => {
    const held: (() => void)[] = [];
    const s = await setup((_r, res) => {
      held.push(() => res.destroy());
    });
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.attempts.length === 1);
    expect(delivery.state).toBe('PENDING');
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: 'timeout' });
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(delivery.attempts[0].duration_ms).toBeLessThan(TIMEOUT_MS + 400);
    held.forEach((release) => release());
  });

  it('a receiver that answers 200 then drips its body forever holds nothing beyond the timeout', async () => {
    let closed = false;
    const s = await setup((_r, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 20);
      res.on('close', () => {
        closed = true;
        clearInterval(drip);
      });
    });
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.state === 'SUCCEEDED');
    expect(delivery.attempts[0].duration_ms).toBeLessThan(TIMEOUT_MS + 400);
    await eventually(
      async () => closed,
      (c) => c,
    );
  });

  it('a huge answer body is read up to 64 KiB only, then the connection is closed', async () => {
    let written = 0;
    let closedEarly = false;
    const total = 50 * 1024 * 1024;
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const s = await setup((_r, res) => {
      res.writeHead(200, { 'content-length': String(total) });
      res.on('close', () => (closedEarly = written < total));
      const pump = () => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.state === 'SUCCEEDED');
    expect(delivery.attempts[0].status_code).toBe(200);
    await eventually(
      async () => closedEarly,
      (c) => c,
    );
    expect(written).toBeLessThan(total / 4);
  });

  it('connection refused is retried', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const s = await setup(answer(200), () => `http://127.0.0.1:${port}/hooks`);
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.attempts.length === 1);
    expect(delivery).toMatchObject({
      state: 'PENDING',
      attempts: [{ status_code: null, error: 'connection_refused' }],
    });
  });

  it('3xx: the redirect is not followed, the delivery is retried (rule 4)', async () => {
    const elsewhere = await WebhookReceiver.start();
    receivers.push(elsewhere);
    const s = await setup(answer(302, { location: elsewhere.url() }));
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.attempts.length === 1);
    expect(delivery).toMatchObject({ state: 'PENDING', attempts: [{ status_code: 302 }] });
    await settle();
    expect(elsewhere.received).toHaveLength(0);
  });

  it('Retry-After in delta-seconds replaces the delay; the HTTP-date form is ignored; above 24 h it is clamped (rule 6)', async () => {
    const delta = await setup(answer(503, { 'retry-after': '120' }));
    const date = await setup(answer(429, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }));
    const huge = await setup(answer(503, { 'retry-after': '999999' }));
    await Promise.all([emit(delta.partner), emit(date.partner), emit(huge.partner)]);
    const [d, h, x] = await Promise.all([
      deliveryWhen(delta, (v) => v.attempts.length === 1),
      deliveryWhen(date, (v) => v.attempts.length === 1),
      deliveryWhen(huge, (v) => v.attempts.length === 1),
    ]);
    expect(seconds(d.attempts[0].at, d.next_attempt_at)).toBe(120);
    expect(seconds(h.attempts[0].at, h.next_attempt_at)).toBe(30);
    expect(seconds(x.attempts[0].at, x.next_attempt_at)).toBe(86400);

    await advanceClock(60);
    await settle();
    expect(delta.hooks.received).toHaveLength(1); // the schedule's 30 s no longer counts
    await advanceClock(60);
    await deliveryWhen(delta, (v) => v.attempts.length === 2);
  });

  it('replay resends the stored envelope unchanged: same id and body, a new signature timestamp', async () => {
    const s = await setup(answer(200));
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.state === 'SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a later second for the timestamp
    const replayed = await s.partner.client.post(`/webhook-deliveries/${delivery.id}/replay`);
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({ id: delivery.id, event_id: delivery.event_id });
    const [original, again] = await s.hooks.waitFor((r) => r.length >= 2);
    expect(again.headers['webhook-id']).toBe(original.headers['webhook-id']);
    expect(again.body).toBe(original.body);
    expect(Number(again.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(original.headers['webhook-timestamp']),
    );
    expect(new Webhook(s.secret).verify(again.body, again.headers as Record<string, string>)).toBeDefined();
    const after = await deliveryWhen(s, (d) => d.attempts.length === 2);
    expect(after.state).toBe('SUCCEEDED');
    // Another partner cannot replay it.
    const other = await platform().newPartner();
    expectProblem(
      await other.client.post(`/webhook-deliveries/${delivery.id}/replay`),
      404,
      'webhook_delivery_not_found',
    );
  });

  it('the 101st replay for one endpoint within an hour is 429 with Retry-After', async () => {
    const s = await setup(answer(200));
    await emit(s.partner);
    const delivery = await deliveryWhen(s, (d) => d.state === 'SUCCEEDED');
    for (let i = 0; i < 100; i++) {
      const res = await s.partner.client.post(`/webhook-deliveries/${delivery.id}/replay`);
      expect(res.status).toBe(202);
    }
    const refused = await s.partner.client.post(`/webhook-deliveries/${delivery.id}/replay`);
    expectProblem(refused, 429, 'webhook_replay_limit_reached', { retryable: true });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    await advanceClock(retryAfter);
    expect((await s.partner.client.post(`/webhook-deliveries/${delivery.id}/replay`)).status).toBe(202);
  });

  it('ten failed deliveries in a row suspend the endpoint: no new deliveries, replay and test refused, until re-enabled', async () => {
    const s = await setup(answer(410));
    for (let i = 0; i < 10; i++) await emit(s.partner, `Failing ${i}`);
    const endpoint = await eventually(
      () => s.partner.client.get(`/webhook-endpoints/${s.endpointId}`),
      (res) => res.body.state === 'SUSPENDED',
    );
    expect(endpoint.body.state).toBe('SUSPENDED');
    const list = await deliveries(s);
    expect(list.every((d: any) => d.state === 'FAILED')).toBe(true);
    await emit(s.partner, 'While suspended');
    await settle();
    expect(await deliveries(s)).toHaveLength(10);
    expectProblem(
      await s.partner.client.post(`/webhook-deliveries/${list[0].id}/replay`),
      409,
      'invalid_state_transition',
    );
    expectProblem(
      await s.partner.client.post(`/webhook-endpoints/${s.endpointId}/test`),
      409,
      'invalid_state_transition',
    );

    s.hooks.behaviour = answer(200);
    const enabled = await s.partner.client.post(`/webhook-endpoints/${s.endpointId}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body.state).toBe('ENABLED');
    expectProblem(
      await s.partner.client.post(`/webhook-endpoints/${s.endpointId}/enable`),
      409,
      'invalid_state_transition',
    );
    await emit(s.partner, 'After re-enabling');
    await s.hooks.waitFor((r) =>
      r.some((x) => (x.envelope as any).data.object.business_name === 'After re-enabling'),
    );
    expect((await s.partner.client.post(`/webhook-deliveries/${list[0].id}/replay`)).status).toBe(202);
  });

  it('POST /webhook-endpoints/{id}/test sends a signed webhook_endpoint.test event to that endpoint only', async () => {
    const s = await setup(answer(200));
    const res = await s.partner.client.post(`/webhook-endpoints/${s.endpointId}/test`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      endpoint_id: s.endpointId,
      event_type: 'webhook_endpoint.test',
      state: 'PENDING',
    });
    const [got] = await s.hooks.waitFor((r) => r.length >= 1);
    const envelope = new Webhook(s.secret).verify(got.body, got.headers as Record<string, string>) as any;
    expect(envelope).toMatchObject({
      id: res.body.event_id,
      type: 'webhook_endpoint.test',
      partner_id: s.partner.id,
      merchant_id: null,
      data: { object: { id: s.endpointId, enabled_events: ['merchant.created'] } },
    });
    expect(JSON.stringify(envelope)).not.toContain(s.secret.slice('whsec_'.length));
    // Test events are not part of GET /events.
    expect((await s.partner.client.get('/events')).body.data).toEqual([]);
  });

  it('data.object is the resource as it was at the event; disputes send transaction.disputed and chargeback.received', async () => {
    const hooks = await WebhookReceiver.start();
    receivers.push(hooks);
    const partner = await platform().newPartner();
    const created = await partner.client.post('/webhook-endpoints', {
      url: hooks.url(),
      enabled_events: [
        'merchant.created',
        'transaction.approved',
        'transaction.disputed',
        'chargeback.received',
      ],
    });
    const merchantId = await activeMerchant(platform().operator, partner);
    const card = await vaultedCredential(platform(), partner, merchantId);
    const sale = await partner.client.post('/transactions', {
      type: 'SALE',
      merchant_id: merchantId,
      amount: '25.00',
      currency: 'USD',
      vault_token: card.vaultToken,
      use_type: 'ONE_TIME_FUTURE',
    });
    expect(sale.status).toBe(200);
    const streams = transactionStreams(platform().service.app);
    await streams.execute(
      { type: 'Settle', transactionId: sale.body.id, batchId: '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b' },
      testMetadata({ partner_id: partner.id }),
    );
    expect(
      (await platform().operator.post(`/platform/sandbox/transactions/${sale.body.id}/dispute`, {})).status,
    ).toBe(200);
    const got = await hooks.waitFor((r) => r.length >= 4);
    const byType = Object.fromEntries(
      got.map((r) => [
        r.envelope.type,
        new Webhook(created.body.secret).verify(r.body, r.headers as Record<string, string>),
      ]),
    ) as Record<string, any>;
    expect(byType['merchant.created'].data.object).toMatchObject({ id: merchantId, state: 'DRAFT' });
    expect(byType['transaction.approved'].data.object).toMatchObject({
      id: sale.body.id,
      state: 'CAPTURED',
      amount: '25.00',
    });
    expect(byType['transaction.disputed'].data.object).toMatchObject({ id: sale.body.id, state: 'DISPUTED' });
    expect(byType['chargeback.received'].data.object).toEqual(byType['transaction.disputed'].data.object);
    expect(byType['chargeback.received'].id).not.toBe(byType['transaction.disputed'].id);
  });

  it('GET /events: the same envelopes for 30 days, cursor-paged, filtered by type, merchant and time', async () => {
    const partner = await platform().newPartner();
    const first = await emit(partner, 'First');
    const second = await emit(partner, 'Second');
    expect((await partner.client.post(`/merchants/${second}/submit`)).status).toBe(200);
    // The page and its total_count are two reads: wait for both to show the third envelope.
    const all = await eventually(
      () => partner.client.get('/events'),
      (res) => res.body.pagination?.total_count === 3 && res.body.data?.length === 3,
    );
    expect(all.body.data.map((e: any) => e.type)).toEqual([
      'merchant.submitted',
      'merchant.created',
      'merchant.created',
    ]);
    expect(all.body.data[2]).toMatchObject({
      merchant_id: first,
      partner_id: partner.id,
      data: { object: { id: first } },
    });

    const submitted = await partner.client.get('/events?type=merchant.submitted');
    expect(submitted.body.data.map((e: any) => e.merchant_id)).toEqual([second]);
    const ofFirst = await partner.client.get(`/events?merchant_id=${first}`);
    expect(ofFirst.body.data.map((e: any) => e.type)).toEqual(['merchant.created']);
    const createdAt = all.body.data[0].created_at;
    const upTo = await partner.client.get(
      `/events?created_to=${encodeURIComponent(createdAt)}&created_from=2026-01-01T00:00:00Z`,
    );
    expect(upTo.body.pagination.total_count).toBe(3);
    const future = await partner.client.get(`/events?created_from=2999-01-01T00:00:00Z`);
    expect(future.body.data).toEqual([]);
    const page = await partner.client.get('/events?page_size=2');
    expect(page.body.pagination).toMatchObject({ has_more: true, total_count: 3 });
    const rest = await partner.client.get(`/events?page_size=2&cursor=${page.body.pagination.next_cursor}`);
    expect(rest.body.data.map((e: any) => e.id)).toEqual([all.body.data[2].id]);

    expectValidationError(await partner.client.get('/events?type=merchant.teleported'), ['type']);
    expectValidationError(await partner.client.get('/events?merchant_id=nope&created_from=yesterday'), [
      'merchant_id',
      'created_from',
    ]);
    expectValidationError(await partner.client.get('/events?colour=blue'), ['colour']);
    expectValidationError(await partner.client.get(`/events?type=merchant.created&type=merchant.submitted`), [
      'type',
    ]);
    expect((await (await platform().newPartner()).client.get('/events')).body.data).toEqual([]);

    await advanceClock(31 * 24 * 60 * 60);
    expect((await partner.client.get('/events')).body.data).toEqual([]);
  });
});
