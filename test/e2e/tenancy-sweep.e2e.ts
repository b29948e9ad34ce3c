import { randomUUID } from 'node:crypto';
import { useTestPlatform, type ApiClient, type ApiResponse, type TestPartner } from '../support/api';
import { activeMerchant, vaultedCredential } from '../support/payments';
import { pathParameters, routesOfTheApp, type Route } from '../support/routes';
import { WebhookReceiver, eventually } from '../support/webhook-receiver';

/** A partner's records, one of each kind a route can name by id. */
type Fixtures = Record<string, string>;

/**
 * Path parameters that are not ids of a partner's records, and what to put there. Every other
 * parameter must have a fixture below: a route whose parameter has neither fails the sweep, so
 * a new route cannot skip it.
 */
const NOT_IDS: Readonly<Record<string, string>> = { flagName: 'ach_payments' };

/**
 * A valid body for each write that validates its body before it looks the record up (otherwise an
 * absent record would hide behind a 400): a write route not listed is sent `{}`, or nothing.
 */
const BODIES: Readonly<Record<string, unknown>> = {
  'PATCH /merchants/:merchantId': { business_name: 'Renamed Cafe' },
  'POST /merchants/:merchantId/respond-clarification': { response: 'Here is the document.' },
  'POST /merchants/:merchantId/compliance/saq-type': { saq_type: 'A' },
  'PUT /merchants/:merchantId/bank-account': {
    routing_number: '011000015',
    account_number: '000123456789',
    account_type: 'CHECKING',
    account_holder_name: 'Sam Baker',
  },
  'PUT /config/hpp-page/merchants/:merchantId': { appearance: { presetKey: 'dark' } },
  'PUT /config/hpp-page/merchants/:merchantId/embedding-domains': { domains: ['shop.example.com'] },
  'POST /config/hpp-page/merchants/:merchantId/embedding-domains/add': { domains: ['shop.example.com'] },
  'POST /merchants/:merchantId/customers': { email: 'payer@bravo.test' },
  'PATCH /merchants/:merchantId/customers/:customerId': { display_name: 'Sam Baker' },
  'PATCH /webhook-endpoints/:endpointId': { url: 'https://hooks.example.com/b' },
  'POST /transactions/:transactionId/three-ds/complete': { outcome: 'authenticated' },
};

/**
 * The tenancy sweep (issue 22.4): every route that names a record by id in its path, found by
 * walking the router, is called by partner B with partner A's id and must answer exactly as for
 * an id that does not exist: 404 problem+json, with nothing of A in it, and nothing written.
 * Where a path names several records, each is A's in turn while the others are B's own. Public
 * routes are outside it (a hosted page's session id is its capability); the platform tier refuses
 * a partner key on every route (auth.e2e.ts, "every route refuses the wrong tier").
 */
describe('tenancy sweep: another partner’s id, on every route that takes one', () => {
  const platform = useTestPlatform({ RELEASED_OPERATIONS: 'terminals' });
  let receiver: WebhookReceiver;
  let a: TestPartner;
  let b: TestPartner;
  let ofA: Fixtures;
  let ofB: Fixtures;
  /** B's terminal's own key (the terminal tier). */
  let terminalKeyOfB: string;

  async function fixtures(partner: TestPartner, name: string): Promise<Fixtures> {
    const op = platform().operator;
    // Every gated route must reach its handler: each feature a route needs is on for both.
    const features = [
      await op.put(`/platform/partners/${partner.id}/feature-flags/terminals`, { enabled: true }),
      await partner.client.put('/config/feature-flags/me/three_d_secure', { enabled: true }),
    ];
    for (const res of features) if (res.status !== 200) throw new Error(`feature: ${res.status} ${res.text}`);
    const merchantId = await activeMerchant(op, partner, `${name} Cafe`);
    const customer = await partner.client.post(`/merchants/${merchantId}/customers`, {
      email: `owner@${name.toLowerCase()}.test`,
    });
    const credential = await vaultedCredential(platform(), partner, merchantId);
    const sale = await partner.client.post('/transactions', {
      type: 'SALE',
      merchant_id: merchantId,
      amount: '10.00',
      currency: 'USD',
      vault_token: credential.vaultToken,
      use_type: 'ONE_TIME_FUTURE',
    });
    const session = await partner.client.post('/hpp/sessions', { merchant_id: merchantId, amount: '5.00' });
    const flow = await partner.client.post('/partner/me/certification/prepare');
    const endpoint = await partner.client.post('/webhook-endpoints', { url: receiver.url(`/${name}`) });
    const terminal = await partner.client.post('/terminals', {
      merchant_id: merchantId,
      serial_number: `SN-${name}-${randomUUID().slice(0, 8)}`,
      model: 'PAX A920 Pro',
    });
    // A contract due a month from now (nothing charges during the sweep).
    const now = Date.parse((await op.get('/platform/sandbox/clock')).body.now as string);
    const contract = await partner.client.post('/contracts', {
      merchant_id: merchantId,
      payment_method_type: 'CARD',
      payment_method_token: credential.vaultToken,
      amount: '9.00',
      frequency: 'MONTHLY',
      start_date: new Date(now + 30 * 86_400_000).toISOString().slice(0, 10),
    });
    for (const res of [customer, sale, session, flow, endpoint, terminal, contract]) {
      if (res.status >= 300) throw new Error(`fixture: ${res.status} ${res.text}`);
    }
    // A settlement batch of the merchant: the end-of-day run settles its SALE.
    const run = await op.post('/platform/settlement/run', { merchant_id: merchantId });
    if (run.status !== 200 || !run.body.data?.[0])
      throw new Error(`settlement run: ${run.status} ${run.text}`);
    const deliveries = await eventually(
      () => partner.client.get(`/webhook-endpoints/${endpoint.body.id}/deliveries`),
      (res) => res.body.data?.length > 0,
      10_000,
      100,
    );
    return {
      id: partner.id,
      partnerId: partner.id,
      merchantId,
      customerId: customer.body.id,
      storedCredentialId: credential.id,
      transactionId: sale.body.id,
      sessionId: session.body.id,
      flowId: flow.body.id,
      endpointId: endpoint.body.id,
      deliveryId: deliveries.body.data[0].id,
      terminalId: terminal.body.id,
      batchId: run.body.data[0].id,
      contractId: contract.body.id,
    };
  }

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    a = await platform().newPartner({ name: 'Tenant Alpha' });
    b = await platform().newPartner({ name: 'Tenant Bravo' });
    ofA = await fixtures(a, 'Alpha');
    ofB = await fixtures(b, 'Bravo');
    const provisioned = await b.client.post(`/terminals/${ofB.terminalId}/provision`);
    expect(provisioned.status).toBe(201);
    terminalKeyOfB = provisioned.body.api_key;
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
  });

  /** The routes a partner (or its terminal) calls with an id in the path. */
  const sweptRoutes = (): Route[] =>
    routesOfTheApp(platform().service.app).filter(
      (route) =>
        (route.access?.tier === 'partner' || route.access?.tier === 'terminal') &&
        pathParameters(route.path).some((name) => !(name in NOT_IDS)),
    );

  const fill = (path: string, ids: Record<string, string>) =>
    path.replace(/^\/api\/v1/, '').replace(/:([A-Za-z]+)/g, (_, name: string) => ids[name] ?? NOT_IDS[name]);

  const send = (caller: ApiClient, route: Route, path: string): Promise<ApiResponse> => {
    const template = `${route.method} ${route.path.replace(/^\/api\/v1/, '')}`;
    const body = BODIES[template] ?? (['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined);
    return caller.call(route.method, path, { body });
  };

  /** What must be the same for A's id and an absent one (the detail may name the id asked for). */
  const shape = (res: ApiResponse) => ({
    status: res.status,
    contentType: res.headers.get('content-type'),
    code: res.body?.code,
    type: res.body?.type,
    title: res.body?.title,
    keys: res.body && typeof res.body === 'object' ? Object.keys(res.body).sort() : res.body,
    detail: String(res.body?.detail).replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
      '<id>',
    ),
  });

  it('finds the routes, and has a fixture for every id they take', () => {
    const routes = sweptRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.flatMap((route) =>
      pathParameters(route.path)
        .filter((name) => !(name in NOT_IDS) && !(name in ofA))
        .map((name) => `${route.method} ${route.path}: no fixture for :${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('every one answers B calling with A’s id exactly as for an id that does not exist: 404, nothing of A, nothing written', async () => {
    const { pool } = platform().service.infra;
    const head = async () =>
      (
        await pool.query<{ head: string }>(
          'select coalesce(max(global_position), 0)::text as head from event_store.events',
        )
      ).rows[0].head;
    const before = await head();
    // Everything that names A, apart from the id the call itself named.
    const secretsOfA = ['Tenant Alpha', 'Alpha Cafe', 'owner@alpha.test', '/Alpha', ...Object.values(ofA)];
    const results: {
      route: string;
      id: string;
      foreign: ReturnType<typeof shape>;
      absent: ReturnType<typeof shape>;
      leaks: string[];
    }[] = [];
    for (const route of sweptRoutes()) {
      const caller = route.access?.tier === 'terminal' ? platform().as(terminalKeyOfB) : b.client;
      for (const name of pathParameters(route.path).filter((n) => !(n in NOT_IDS))) {
        const foreign = await send(caller, route, fill(route.path, { ...ofB, [name]: ofA[name] }));
        const absent = await send(caller, route, fill(route.path, { ...ofB, [name]: randomUUID() }));
        const text = foreign.text ?? '';
        results.push({
          route: `${route.method} ${route.path}`,
          id: name,
          foreign: shape(foreign),
          absent: shape(absent),
          leaks: secretsOfA.filter((secret) => secret !== ofA[name] && text.includes(secret)),
        });
      }
    }
    const wrong = results
      .filter(
        (r) =>
          r.foreign.status !== 404 ||
          JSON.stringify(r.foreign) !== JSON.stringify(r.absent) ||
          r.leaks.length > 0,
      )
      .map(
        (r) =>
          `${r.route} with A's :${r.id}: ${r.foreign.status} ${r.foreign.code} "${r.foreign.detail}"` +
          ` (absent: ${r.absent.status} ${r.absent.code})${r.leaks.length ? `, shows ${r.leaks.join(', ')}` : ''}`,
      );
    expect(wrong).toEqual([]);
    expect(results.length).toBeGreaterThan(60);
    // Nothing B did reached any stream (named by stream and type when something did). The
    // platform's own passes (actor `system:…`: sweeps, webhook delivery) run on their schedule
    // meanwhile and are not B's doing.
    const written = await pool.query<{ stream_name: string; type: string; actor: string }>(
      `select stream_name, type, metadata->>'actor' as actor from event_store.events
        where global_position > $1 and metadata->>'actor' not like 'system%'
        order by global_position`,
      [before],
    );
    expect(written.rows).toEqual([]);
  }, 120_000);

  it('lists filtered by A’s merchant show B nothing of A', async () => {
    const queries = [
      `/transactions?merchant_id=${ofA.merchantId}`,
      `/transactions/summary?merchant_id=${ofA.merchantId}`,
      `/transactions/export?merchant_id=${ofA.merchantId}`,
      `/terminals?merchant_id=${ofA.merchantId}`,
      `/events?merchant_id=${ofA.merchantId}`,
      `/config/hpp-page?merchant_id=${ofA.merchantId}`,
    ];
    for (const query of queries) {
      const res = await b.client.get(query);
      const text = res.text ?? '';
      expect({
        query,
        status: res.status,
        leaks: [ofA.transactionId, ofA.terminalId, 'Alpha'].filter((s) => text.includes(s)),
      }).toEqual({
        query,
        status: res.status === 404 ? 404 : 200,
        leaks: [],
      });
    }
  });
});
