/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type ApiResponse, type TestPartner } from '../support/api';
import { expectProblem } from '../support/problems';

/**
 * Partner B reaching for partner A's records must learn nothing: every read and write of A's ids
 * answers exactly as the same call for an id that does not exist.
 */
describe('tenancy: one partner cannot reach another partner’s records', () => {
  const platform = useTestPlatform();
  let a: TestPartner;
  let b: TestPartner;
  let flowId: string;
  let configOfA: any;
  let streamLengthOfA: number;

  beforeAll(async () => {
    a = await platform().newPartner({ name: 'Tenant A' });
    b = await platform().newPartner({ name: 'Tenant B' });
    const prepared = await a.client.post('/partner/me/certification/prepare');
    expect(prepared.status).toBe(201);
    flowId = prepared.body.id;
    const configured = await a.client.put(`/config/partners/${a.id}`, {
      webhook_url: 'https://a.example.com/hooks',
      hpp_settings: { accepted_methods: ['credit_card'] },
    });
    expect(configured.status).toBe(200);
    expect((await a.client.put('/config/feature-flags/me/ach_payments', { enabled: true })).status).toBe(200);
    // The first identity read records a certification fact: read it before taking A's snapshot.
    streamLengthOfA = (await a.client.get('/partner/me')).body.version;
    configOfA = (await a.client.get(`/config/partners/${a.id}`)).body;
  });

  /** The answer for A's id and the answer for a random id: same status, code, title and type. */
  async function expectLikeAbsent(
    call: (id: string) => Promise<ApiResponse>,
    foreignId: () => string,
    status: number,
    code: string,
  ) {
    const foreign = await call(foreignId());
    const absent = await call(randomUUID());
    expectProblem(foreign, status, code);
    expectProblem(absent, status, code);
    const shape = (res: ApiResponse) => ({
      status: res.status,
      contentType: res.headers.get('content-type'),
      code: res.body.code,
      title: res.body.title,
      type: res.body.type,
      keys: Object.keys(res.body).sort(),
      // The detail may name the id asked for; apart from that it is the same sentence.
      detail: String(res.body.detail).replace(
        /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi,
        '<id>',
      ),
    });
    expect(shape(foreign)).toEqual(shape(absent));
    // Nothing of A leaks into the answer.
    expect(JSON.stringify(foreign.body)).not.toContain('Tenant A');
    expect(JSON.stringify(foreign.body)).not.toContain('a.example.com');
  }

  it('GET /iam/partners/{A} is 404 partner_not_found, like an absent id', async () => {
    await expectLikeAbsent(
      (id) => b.client.get(`/iam/partners/${id}`),
      () => a.id,
      404,
      'partner_not_found',
    );
  });

  it('GET /iam/partners/{A}/transitions is 404 partner_not_found, like an absent id', async () => {
    await expectLikeAbsent(
      (id) => b.client.get(`/iam/partners/${id}/transitions`),
      () => a.id,
      404,
      'partner_not_found',
    );
  });

  it('GET /config/partners/{A} is 404 partner_not_found, like an absent id', async () => {
    await expectLikeAbsent(
      (id) => b.client.get(`/config/partners/${id}`),
      () => a.id,
      404,
      'partner_not_found',
    );
  });

  it('PUT /config/partners/{A} is 404 partner_not_found, like an absent id, and changes nothing', async () => {
    await expectLikeAbsent(
      (id) =>
        b.client.put(`/config/partners/${id}`, {
          webhook_url: 'https://b.example.com/stolen',
          ip_allowlist: ['203.0.113.0/24'],
          hpp_settings: { accepted_methods: ['ach'] },
        }),
      () => a.id,
      404,
      'partner_not_found',
    );
    // An empty body too: no write reaches A's stream.
    await expectLikeAbsent(
      (id) => b.client.put(`/config/partners/${id}`, {}),
      () => a.id,
      404,
      'partner_not_found',
    );
  });

  it('GET /certification/flows/{A’s flow} is 404 certification_flow_not_found, like an absent id', async () => {
    await expectLikeAbsent(
      (id) => b.client.get(`/certification/flows/${id}`),
      () => flowId,
      404,
      'certification_flow_not_found',
    );
    // B has no active flow of its own: A's does not show through.
    expectProblem(await b.client.get('/certification/flows/active'), 404, 'certification_flow_not_found');
    // A still reads its own flow.
    expect((await a.client.get(`/certification/flows/${flowId}`)).status).toBe(200);
  });

  it('B’s own reads show only B', async () => {
    const me = await b.client.get('/partner/me');
    expect(me.body).toMatchObject({ id: b.id, name: 'Tenant B' });
    expect((await b.client.get('/capabilities')).body).toMatchObject({
      partner_id: b.id,
      enabled_features: ['custom_fields', 'hosted_payment_pages', 'recurring_billing', 'stored_credentials'],
    });
    const config = await b.client.get(`/config/partners/${b.id}`);
    expect(config.body).toMatchObject({ partner_id: b.id, webhook_url: null });
    const transitions = await b.client.get(`/iam/partners/${b.id}/transitions`);
    expect(transitions.body.data).toHaveLength(1);
  });

  it('the cross-tenant list and A’s records on the platform tier are closed to a partner key', async () => {
    expectProblem(await b.client.get('/platform/partners'), 403, 'unauthorized');
    expectProblem(await b.client.get(`/platform/partners/${a.id}`), 403, 'unauthorized');
    expectProblem(await b.client.get(`/platform/partners/${a.id}/api-keys`), 403, 'unauthorized');
    expectProblem(await b.client.get(`/platform/streams/partner-${a.id}/events`), 403, 'unauthorized');
    expectProblem(
      await b.client.patch(`/platform/partners/${a.id}/config`, { rate_limit_tier: 'SANDBOX' }),
      403,
      'unauthorized',
    );
  });

  it('idempotency keys are per partner: B reusing A’s key is a fresh request on B', async () => {
    const key = `shared-${randomUUID()}`;
    const first = await a.client.put(
      '/config/feature-flags/me/three_d_secure',
      { enabled: true },
      { idempotencyKey: key },
    );
    expect(first.status).toBe(200);
    const second = await b.client.put(
      '/config/feature-flags/me/level2_level3_data',
      { enabled: true },
      {
        idempotencyKey: key,
      },
    );
    expect(second.status).toBe(200);
    expect(second.headers.get('x-idempotent-replay')).toBeNull();
    expect(second.body).toMatchObject({ flag_name: 'level2_level3_data', partner_id: b.id, enabled: true });
    // And the same body under the same key from B is not A's answer either.
    const third = await b.client.put(
      '/config/feature-flags/me/three_d_secure',
      { enabled: true },
      { idempotencyKey: `${key}-b` },
    );
    expect(third.body.partner_id).toBe(b.id);
    await a.client.put('/config/feature-flags/me/three_d_secure', { enabled: false });
  });

  it('afterwards A’s configuration and history are exactly as A left them', async () => {
    // The idempotency test above turned one of A's flags on and off again: two events, nothing else.
    const config = await a.client.get(`/config/partners/${a.id}`);
    expect(config.body).toEqual({ ...configOfA, version: configOfA.version + 2 });
    expect((await a.client.get('/partner/me')).body.version).toBe(streamLengthOfA + 2);
    const events = await platform().operator.get(`/platform/streams/partner-${a.id}/events?limit=1000`);
    for (const event of events.body.data) {
      expect(event.metadata.actor).not.toBe(`partner-key:${b.key.slice(4, 12)}`);
    }
    expect((await a.client.get('/capabilities')).body.enabled_features).toEqual([
      'ach_payments',
      'custom_fields',
      'hosted_payment_pages',
      'recurring_billing',
      'stored_credentials',
    ]);
  });
});
