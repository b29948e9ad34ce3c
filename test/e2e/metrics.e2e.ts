import { Pool } from 'pg';
import { FixedClock } from '../../libs/platform/src/clock/clock';
import { recurringGauges } from '../../libs/recurring/src';
import { useTestPlatform } from '../support/api';
import { activeMerchant, draftMerchant, vaultedCredential } from '../support/payments';
import { checkedFetch } from '../support/checked-fetch';

/** `GET /platform/metrics`: what an operator's Prometheus scrapes (docs/operations.md, "Metrics"). */
describe('metrics', () => {
  const platform = useTestPlatform();

  /** The scrape (prom-client writes the text format): its `# TYPE`s and its samples. */
  async function scrape() {
    const res = await checkedFetch(`${platform().service.url}/api/v1/platform/metrics`, {
      headers: { authorization: `Bearer ${platform().operator.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    return { text, ...parse(text) };
  }

  /** One sample line: `name{label="value",…} number` (label values as the format escapes them). */
  function parse(text: string) {
    const types = new Map<string, string>();
    const samples: { name: string; labels: Record<string, string>; value: number }[] = [];
    for (const line of text.split('\n')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1], type[2]);
      const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!sample) continue;
      const labels: Record<string, string> = {};
      for (const [, key, value] of (sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
        labels[key] = value;
      samples.push({ name: sample[1], labels, value: Number(sample[3]) });
    }
    const find = (name: string, labels: Record<string, string> = {}) =>
      samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
    return { types, samples, find };
  }

  it('is an operator tool: no key is 401, a partner key 403, both problem+json', async () => {
    const anonymous = await platform().as(null).get('/platform/metrics');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const partner = await platform().newPartner();
    const refused = await partner.client.get('/platform/metrics');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('unauthorized');
  });

  it('times requests by method, route pattern and status, never by the URL a client sent', async () => {
    const partner = await platform().newPartner();
    const merchantId = await draftMerchant(partner);
    expect((await partner.client.get(`/merchants/${merchantId}`)).status).toBe(200);
    // A card number in a URL must not become a label (docs/logging.md: never in logs, nor here).
    await partner.client.get('/merchants/4111111111111111');
    await partner.client.get('/no-such-route/4111111111111111');

    const { text, types, find } = await scrape();
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain(merchantId);
    expect(types.get('http_request_duration_seconds')).toBe('histogram');
    const count = (labels: Record<string, string>) =>
      find('http_request_duration_seconds_count', labels).reduce((sum, s) => sum + s.value, 0);
    expect(
      count({ route: '/api/v1/merchants/:merchantId', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(count({ route: '/api/v1/merchants', method: 'POST', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(count({ route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    const [sum] = find('http_request_duration_seconds_sum', {
      route: '/api/v1/merchants/:merchantId',
      status: '200',
    });
    expect(sum.value).toBeGreaterThan(0);
  });

  it('reports each projector’s lag, the request pool, and the process itself', async () => {
    const { types, find } = await scrape();
    expect(types.get('projection_lag_events')).toBe('gauge');
    const lag = find('projection_lag_events');
    const projectors = lag.map((s) => s.labels.projector);
    for (const name of ['transaction-list', 'merchant-list', 'webhooks']) expect(projectors).toContain(name);
    for (const s of lag) expect(s.value).toBeGreaterThanOrEqual(0);
    const pool = find('db_pool_connections');
    expect(pool.map((s) => s.labels.kind).sort()).toEqual(['idle', 'total', 'waiting']);
    expect(find('db_pool_connections', { kind: 'total' })[0].value).toBeGreaterThan(0);
    expect(find('process_resident_memory_bytes')[0].value).toBeGreaterThan(0);
  });

  it('shows the webhook queue: a delivery to a receiver that refuses connections waits, and ages', async () => {
    const partner = await platform().newPartner();
    const endpoint = await partner.client.post('/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hooks', // the discard port: nothing listens, the connection is refused
      enabled_events: ['merchant.created'],
    });
    expect(endpoint.status).toBe(201);
    await draftMerchant(partner);
    let pending = 0;
    for (let i = 0; i < 100 && pending === 0; i++) {
      pending = (await scrape()).find('webhook_deliveries_pending')[0]?.value ?? 0;
      if (pending === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(pending).toBeGreaterThanOrEqual(1);
    const [oldest] = (await scrape()).find('webhook_oldest_pending_delivery_seconds');
    expect(oldest.value).toBeGreaterThanOrEqual(0);
  });

  it('counts the recurring charges due on the service clock: none once a pass has charged them', async () => {
    const partner = await platform().newPartner();
    const merchantId = await activeMerchant(platform().operator, partner, 'Metered Gym');
    const card = await vaultedCredential(platform(), partner, merchantId);
    const now = new Date((await platform().operator.get('/platform/sandbox/clock')).body.now as string);
    const tomorrow = new Date(now.getTime() + 86_400_000);
    const created = await partner.client.post('/contracts', {
      merchant_id: merchantId,
      payment_method_type: 'CARD',
      payment_method_token: card.vaultToken,
      amount: '12.00',
      frequency: 'MONTHLY',
      start_date: tomorrow.toISOString().slice(0, 10),
    });
    expect(created.status).toBe(201);

    // The gauge's own reading, at a clock of its own: not due today, due tomorrow.
    const pool = platform().service.app.get(Pool);
    const [due] = recurringGauges(new FixedClock(now));
    expect(await due.read(pool)).toEqual([{ value: 0 }]);
    const [dueTomorrow] = recurringGauges(new FixedClock(tomorrow));
    expect(await dueTomorrow.read(pool)).toEqual([{ value: 1 }]);

    // The scrape reads the service's clock; a clock advance runs the pass that charges it.
    const before = await scrape();
    expect(before.types.get('recurring_charges_due')).toBe('gauge');
    expect(before.find('recurring_charges_due')[0].value).toBe(0);
    const advanced = await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 86_400 });
    expect(advanced.status).toBe(200);
    expect((await partner.client.get(`/contracts/${created.body.id}`)).body.amount_paid).toBe('12.00');
    expect((await scrape()).find('recurring_charges_due')[0].value).toBe(0);
  });
});
