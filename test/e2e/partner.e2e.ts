/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { generateKey } from '../../libs/platform/src/auth/secret-key';
import { ApiClient, useTestPlatform, type TestPartner } from '../support/api';
import { startTestService } from '../support/app';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

const DEFAULT_FEATURES = ['custom_fields', 'hosted_payment_pages', 'recurring_billing', 'stored_credentials'];

describe('partner identity, capabilities and the operator partner routes', () => {
  const platform = useTestPlatform();

  /** A partner created with every optional field, with a known request id and idempotency key. */
  async function fullPartner(): Promise<TestPartner & { requestId: string; idempotencyKey: string }> {
    const requestId = `create-${randomUUID()}`;
    const idempotencyKey = `create-${randomUUID()}`;
    const created = await platform().operator.post(
      '/platform/partners',
      {
        name: 'Northwind Software',
        contact_email: 'ops@northwind.test',
        contact_name: 'Nancy Davolio',
        dba: 'Northwind POS',
        partner_type: 'VAR',
        business_address: {
          address_line1: '1 Main St',
          address_line2: 'Suite 200',
          city: 'Seattle',
          state: 'WA',
          zip: '98101',
          country: 'US',
        },
      },
      { idempotencyKey, headers: { 'x-request-id': requestId } },
    );
    expect(created.status).toBe(201);
    const issued = await platform().operator.post(`/platform/partners/${created.body.id}/api-keys`, {});
    expect(issued.status).toBe(201);
    return {
      id: created.body.id,
      keyId: issued.body.id,
      key: issued.body.api_key,
      client: platform().as(issued.body.api_key),
      requestId,
      idempotencyKey,
    };
  }

  async function streamOf(partnerId: string): Promise<any[]> {
    const res = await platform().operator.get(`/platform/streams/partner-${partnerId}/events?limit=1000`);
    expect(res.status).toBe(200);
    return res.body.data;
  }

  describe('GET /partner/me', () => {
    it('answers every field of the spec Partner, version counting the events of the stream', async () => {
      const partner = await fullPartner();
      const me = await partner.client.get('/partner/me');
      expect(me.status).toBe(200);
      expect(me.headers.get('content-type')).toMatch(/^application\/json/);
      expect(me.body).toEqual({
        id: partner.id,
        name: 'Northwind Software',
        contact_email: 'ops@northwind.test',
        contact_name: 'Nancy Davolio',
        business_address: {
          address_line1: '1 Main St',
          address_line2: 'Suite 200',
          city: 'Seattle',
          state: 'WA',
          zip: '98101',
          country: 'US',
        },
        dba: 'Northwind POS',
        partner_type: 'VAR',
        state: 'PENDING',
        commercial_model: 'RESELLER',
        rate_limit_tier: 'STANDARD',
        assigned_csm_name: null,
        assigned_csm_email: null,
        live_merchant_count: 0,
        has_live_key: false,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        version: 4,
      });
      // Issuing the key and this first identity read are certification evidence, recorded once.
      expect((await streamOf(partner.id)).map((e) => e.type)).toEqual([
        'PartnerCreated',
        'ApiKeyIssued',
        'CertificationFactObserved',
        'CertificationFactObserved',
      ]);
      expect((await partner.client.get('/partner/me')).body.version).toBe(4);

      await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true });
      await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, {});
      const after = await partner.client.get('/partner/me');
      expect(after.body.version).toBe(6);
      expect(after.body.version).toBe((await streamOf(partner.id)).length);
    });

    it('defaults partner_type to ISV and leaves absent optional fields null', async () => {
      const partner = await platform().newPartner();
      const me = await partner.client.get('/partner/me');
      expect(me.body).toMatchObject({
        partner_type: 'ISV',
        dba: null,
        business_address: null,
        state: 'PENDING',
        version: 4,
      });
    });
  });

  it('GET /capabilities: PENDING, the default flags, the tier', async () => {
    const partner = await platform().newPartner();
    const res = await partner.client.get('/capabilities');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      partner_id: partner.id,
      certification_status: 'PENDING',
      enabled_features: DEFAULT_FEATURES,
      rate_limit_tier: 'STANDARD',
    });
  });

  it('GET /partner/system-status: each component operational, overall operational', async () => {
    const partner = await platform().newPartner();
    const res = await partner.client.get('/partner/system-status');
    expect(res.status).toBe(200);
    expect(res.body.overall).toBe('operational');
    const byKey = Object.fromEntries(res.body.components.map((c: any) => [c.key, c]));
    for (const key of ['database', 'event_store', 'read_models', 'background_workers']) {
      expect(byKey[key]).toEqual({ key, label: expect.any(String), status: 'operational' });
      expect(byKey[key].label.length).toBeGreaterThan(0);
    }
    for (const component of res.body.components) {
      expect(Object.keys(component).sort()).toEqual(['key', 'label', 'status']);
    }
    expectProblem(await platform().operator.get('/partner/system-status'), 403, 'unauthorized');
  });

  describe('GET /iam/partners/{id}', () => {
    it('answers the own partner like /partner/me, a foreign or unknown id with 404, a malformed one with 400', async () => {
      const partner = await platform().newPartner();
      const other = await platform().newPartner();
      await partner.client.get('/partner/me'); // the first identity read records a fact
      const own = await partner.client.get(`/iam/partners/${partner.id}`);
      expect(own.status).toBe(200);
      expect(own.body).toEqual((await partner.client.get('/partner/me')).body);
      expect((await partner.client.get(`/iam/partners/${partner.id.toUpperCase()}`)).body.id).toBe(
        partner.id,
      );
      expectProblem(await partner.client.get(`/iam/partners/${other.id}`), 404, 'partner_not_found');
      expectProblem(await partner.client.get(`/iam/partners/${randomUUID()}`), 404, 'partner_not_found');
      expectValidationError(await partner.client.get('/iam/partners/not-a-uuid'), ['id']);
    });
  });

  describe('GET /iam/partners/{id}/transitions and operator certification', () => {
    it('records creation, certification and its reset with actor and request id', async () => {
      const partner = await fullPartner();
      const initial = await partner.client.get(`/iam/partners/${partner.id}/transitions`);
      expect(initial.status).toBe(200);
      expect(initial.body).toEqual({
        data: [
          {
            version: 1,
            event_type: 'PartnerCreated',
            occurred_at: expect.stringMatching(ISO_TIMESTAMP),
            from_state: null,
            to_state: 'PENDING',
            from_certification_status: null,
            to_certification_status: 'PENDING',
            actor: 'platform-operator',
            request_id: partner.requestId,
          },
        ],
      });

      const certified = await platform().operator.put(
        `/platform/partners/${partner.id}/certification`,
        { status: 'CERTIFIED' },
        { headers: { 'x-request-id': 'certify-req-1' } },
      );
      expect(certified.status).toBe(200);
      expect(certified.body).toEqual({
        partner_id: partner.id,
        certification_status: 'CERTIFIED',
        enabled_features: DEFAULT_FEATURES,
        rate_limit_tier: 'STANDARD',
      });
      expect((await partner.client.get('/capabilities')).body.certification_status).toBe('CERTIFIED');
      expect((await partner.client.get('/partner/me')).body.state).toBe('ACTIVE');

      // Certifying a certified partner again changes nothing.
      const again = await platform().operator.put(`/platform/partners/${partner.id}/certification`, {
        status: 'CERTIFIED',
      });
      expect(again.status).toBe(200);
      expect(again.body.certification_status).toBe('CERTIFIED');

      const reset = await platform().operator.put(
        `/platform/partners/${partner.id}/certification`,
        { status: 'PENDING' },
        { headers: { 'x-request-id': 'reset-req-1' } },
      );
      expect(reset.status).toBe(200);
      expect(reset.body.certification_status).toBe('PENDING');
      expect((await partner.client.get('/partner/me')).body.state).toBe('PENDING');

      const transitions = await partner.client.get(`/iam/partners/${partner.id}/transitions`);
      expect(transitions.body.data).toHaveLength(3);
      expect(transitions.body.data[1]).toEqual({
        version: 4,
        event_type: 'PartnerCertified',
        occurred_at: expect.stringMatching(ISO_TIMESTAMP),
        from_state: 'PENDING',
        to_state: 'ACTIVE',
        from_certification_status: 'PENDING',
        to_certification_status: 'CERTIFIED',
        actor: 'platform-operator',
        request_id: 'certify-req-1',
      });
      expect(transitions.body.data[2]).toEqual({
        version: 6, // after the certification and the identity-read fact
        event_type: 'PartnerCertificationReset',
        occurred_at: expect.stringMatching(ISO_TIMESTAMP),
        from_state: 'ACTIVE',
        to_state: 'PENDING',
        from_certification_status: 'CERTIFIED',
        to_certification_status: 'PENDING',
        actor: 'platform-operator',
        request_id: 'reset-req-1',
      });
      expect(Date.parse(transitions.body.data[2].occurred_at)).toBeGreaterThanOrEqual(
        Date.parse(transitions.body.data[1].occurred_at),
      );
    });

    it('refuses an unknown status and an unknown partner', async () => {
      const partner = await platform().newPartner();
      expectValidationError(
        await platform().operator.put(`/platform/partners/${partner.id}/certification`, { status: 'GOLD' }),
        ['status'],
      );
      expectValidationError(
        await platform().operator.put(`/platform/partners/${partner.id}/certification`, {}),
        ['status'],
      );
      expectProblem(
        await platform().operator.put(`/platform/partners/${randomUUID()}/certification`, {
          status: 'CERTIFIED',
        }),
        404,
        'partner_not_found',
      );
      expectProblem(
        await partner.client.get(`/iam/partners/${randomUUID()}/transitions`),
        404,
        'partner_not_found',
      );
    });
  });

  describe('operator partner routes', () => {
    it('GET /platform/partners/{id} is the Partner resource; unknown is 404', async () => {
      const partner = await fullPartner();
      await partner.client.get('/partner/me'); // the first identity read records a fact
      const read = await platform().operator.get(`/platform/partners/${partner.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual((await partner.client.get('/partner/me')).body);
      expectProblem(
        await platform().operator.get(`/platform/partners/${randomUUID()}`),
        404,
        'partner_not_found',
      );
      expectValidationError(await platform().operator.get('/platform/partners/123'), ['partnerId']);
    });

    it('GET /platform/partners/{id}/api-keys lists live keys and never their secret', async () => {
      const partner = await platform().newPartner();
      const second = await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, {
        scopes: ['partner:read'],
      });
      expect(second.status).toBe(201);
      expect(second.body).toEqual({
        id: expect.stringMatching(UUID),
        prefix: expect.stringMatching(/^[A-Za-z0-9_-]{8}$/),
        api_key: expect.stringMatching(/^csk_/),
        scopes: ['partner:read'],
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        secret_issued_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      const listed = await platform().operator.get(`/platform/partners/${partner.id}/api-keys`);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toHaveLength(2);
      for (const key of listed.body.data) {
        expect(Object.keys(key).sort()).toEqual(['created_at', 'id', 'prefix', 'scopes', 'secret_issued_at']);
      }
      expect(listed.body.data.map((k: any) => k.id).sort()).toEqual([partner.keyId, second.body.id].sort());
      const text = JSON.stringify(listed.body);
      expect(text).not.toContain(partner.key);
      expect(text).not.toContain(second.body.api_key);
      expect(text).not.toContain(second.body.api_key.slice(13));

      await platform().operator.delete(`/platform/partners/${partner.id}/api-keys/${second.body.id}`);
      const after = await platform().operator.get(`/platform/partners/${partner.id}/api-keys`);
      expect(after.body.data.map((k: any) => k.id)).toEqual([partner.keyId]);
      expectProblem(
        await platform().operator.get(`/platform/partners/${randomUUID()}/api-keys`),
        404,
        'partner_not_found',
      );
    });

    it('PUT /platform/partners/{id}/feature-flags/{flag} sets enabled and availability', async () => {
      const partner = await platform().newPartner();
      const set = await platform().operator.put(`/platform/partners/${partner.id}/feature-flags/terminals`, {
        enabled: true,
        globally_available: true,
      });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({
        flag_name: 'terminals',
        partner_id: partner.id,
        enabled: true,
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_by: 'platform-operator',
        version: 4,
      });
      const flags = await partner.client.get('/config/feature-flags/me');
      expect(flags.body.find((f: any) => f.flag_name === 'terminals')).toMatchObject({
        enabled: true,
        globally_available: true,
      });
      expect((await partner.client.get('/capabilities')).body.enabled_features).toEqual(
        [...DEFAULT_FEATURES, 'terminals'].sort(),
      );
      // Now globally available, the partner may switch it off itself.
      expect(
        (await partner.client.put('/config/feature-flags/me/terminals', { enabled: false })).status,
      ).toBe(200);

      const path = `/platform/partners/${partner.id}/feature-flags`;
      expectValidationError(
        await platform().operator.put(`${path}/terminals`, { globally_available: true }),
        ['enabled'],
      );
      expectValidationError(await platform().operator.put(`${path}/terminals`, { enabled: 'yes' }), [
        'enabled',
      ]);
      expectValidationError(await platform().operator.put(`${path}/Terminals`, { enabled: true }), [
        'flagName',
      ]);
      expectProblem(
        await platform().operator.put(`${path}/no_such_flag`, { enabled: true }),
        404,
        'feature_flag_not_found',
      );
      expectProblem(
        await platform().operator.put(`/platform/partners/${randomUUID()}/feature-flags/terminals`, {
          enabled: true,
        }),
        404,
        'partner_not_found',
      );
      // The operator is held to the dependency rules too (recurring_billing is on by default).
      expect((await platform().operator.put(`${path}/recurring_billing`, { enabled: false })).status).toBe(
        200,
      );
      expectProblem(
        await platform().operator.put(`${path}/installments`, { enabled: true }),
        422,
        'feature_flag_dependencies_unmet',
      );
    });

    it('PATCH /platform/partners/{id}/config sets the operator-managed fields; a bad tier is 400', async () => {
      const partner = await platform().newPartner();
      const path = `/platform/partners/${partner.id}/config`;
      const patched = await platform().operator.patch(path, {
        rate_limit_tier: 'ELEVATED',
        avs_decline_policy: 'DECLINE_ON_NO_MATCH',
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        partner_id: partner.id,
        rate_limit_tier: 'ELEVATED',
        avs_decline_policy: 'DECLINE_ON_NO_MATCH',
        version: 4,
      });
      expect((await partner.client.get('/capabilities')).body.rate_limit_tier).toBe('ELEVATED');
      const me = await partner.client.get('/partner/me');
      expect(me.body.rate_limit_tier).toBe('ELEVATED');
      expect(me.headers.get('ratelimit-limit')).toBe('1500');
      expect((await partner.client.get(`/config/partners/${partner.id}`)).body).toMatchObject({
        rate_limit_tier: 'ELEVATED',
        avs_decline_policy: 'DECLINE_ON_NO_MATCH',
      });
      // Only one field: the other stays.
      const tierOnly = await platform().operator.patch(path, { rate_limit_tier: 'ENTERPRISE' });
      expect(tierOnly.body).toMatchObject({
        rate_limit_tier: 'ENTERPRISE',
        avs_decline_policy: 'DECLINE_ON_NO_MATCH',
      });
      // The same values again record nothing.
      const same = await platform().operator.patch(path, { rate_limit_tier: 'ENTERPRISE' });
      expect(same.body.version).toBe(tierOnly.body.version);

      expectValidationError(await platform().operator.patch(path, { rate_limit_tier: 'GOLD' }), [
        'rate_limit_tier',
      ]);
      expectValidationError(await platform().operator.patch(path, { avs_decline_policy: 'ALWAYS' }), [
        'avs_decline_policy',
      ]);
      expectValidationError(await platform().operator.patch(path, { webhook_url: 'https://x.example' }), [
        'webhook_url',
      ]);
      expectProblem(
        await platform().operator.patch(`/platform/partners/${randomUUID()}/config`, {
          rate_limit_tier: 'SANDBOX',
        }),
        404,
        'partner_not_found',
      );
      expect((await partner.client.get('/capabilities')).body.rate_limit_tier).toBe('ENTERPRISE');
    });
  });

  describe('GET /platform/streams/{stream}/events', () => {
    it('lists the events oldest first with revision, position, type, data, metadata and time', async () => {
      const partner = await fullPartner();
      const events = await streamOf(partner.id);
      expect(events.map((e) => e.type)).toEqual([
        'PartnerCreated',
        'ApiKeyIssued',
        'CertificationFactObserved',
      ]);
      expect(events.map((e) => e.revision)).toEqual([0, 1, 2]);
      expect(events[2].data).toMatchObject({ fact: 'API_KEY_ISSUED' });
      for (const event of events) {
        expect(Object.keys(event).sort()).toEqual(
          ['data', 'global_position', 'metadata', 'recorded_at', 'revision', 'type'].sort(),
        );
        expect(event.recorded_at).toMatch(ISO_TIMESTAMP);
        expect(Number.isInteger(event.global_position)).toBe(true);
      }
      expect(events[1].global_position).toBeGreaterThan(events[0].global_position);
      expect(events[0].data).toMatchObject({
        partnerId: partner.id,
        name: 'Northwind Software',
        partnerType: 'VAR',
      });
      expect(events[0].metadata).toMatchObject({
        actor: 'platform-operator',
        request_id: partner.requestId,
        idempotency_key: partner.idempotencyKey,
        partner_id: partner.id,
      });
      expect(events[1].metadata).toMatchObject({
        actor: 'platform-operator',
        request_id: expect.any(String),
        idempotency_key: expect.any(String),
      });
      // The key's hash is recorded; the key never is.
      expect(JSON.stringify(events)).not.toContain(partner.key);

      // A partner's own write names its key (by prefix), not the secret.
      await partner.client.put(
        '/config/feature-flags/me/ach_payments',
        { enabled: true },
        { idempotencyKey: 'flag-1' },
      );
      const [flag] = (await streamOf(partner.id)).slice(3);
      expect(flag).toMatchObject({
        revision: 3,
        type: 'FeatureFlagChanged',
        data: { flagName: 'ach_payments', enabled: true, changedBy: 'partner' },
        metadata: {
          actor: `partner-key:${partner.key.slice(4, 12)}`,
          idempotency_key: 'flag-1',
          partner_id: partner.id,
        },
      });
    });

    it('pages with from_revision and limit', async () => {
      const partner = await platform().newPartner();
      await platform().operator.post(`/platform/partners/${partner.id}/api-keys`, {});
      const path = `/platform/streams/partner-${partner.id}/events`;
      const page = await platform().operator.get(`${path}?from_revision=1&limit=1`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(1);
      expect(page.body.data[0]).toMatchObject({ revision: 1, type: 'ApiKeyIssued' });
      expect(page.body).toMatchObject({
        stream: `partner-${partner.id}`,
        has_more: true,
        next_from_revision: 2,
      });
      const rest = await platform().operator.get(`${path}?from_revision=2`);
      expect(rest.body.data.map((e: any) => e.revision)).toEqual([2, 3]); // fact, second key
      expect(rest.body).toMatchObject({ has_more: false, next_from_revision: null });
      const beyond = await platform().operator.get(`${path}?from_revision=50`);
      expect(beyond.status).toBe(200);
      expect(beyond.body.data).toEqual([]);
      expectValidationError(await platform().operator.get(`${path}?limit=0`), ['limit']);
      expectValidationError(await platform().operator.get(`${path}?limit=abc`), ['limit']);
      expectValidationError(await platform().operator.get(`${path}?from_revision=-1`), ['from_revision']);
    });

    it('answers an unknown stream with 404 stream_not_found', async () => {
      expectProblem(
        await platform().operator.get(`/platform/streams/partner-${randomUUID()}/events`),
        404,
        'stream_not_found',
      );
      expectProblem(
        await platform().operator.get('/platform/streams/nothing-here/events'),
        404,
        'stream_not_found',
      );
    });
  });

  describe('projections', () => {
    it('GET /platform/projections lists each projector with its checkpoint and lag', async () => {
      await platform().newPartner();
      const res = await platform().operator.get('/platform/projections');
      expect(res.status).toBe(200);
      const names = res.body.data.map((p: any) => p.name);
      expect(names).toEqual(expect.arrayContaining(['partner-access', 'partner-list']));
      for (const projection of res.body.data) {
        expect(projection).toMatchObject({
          name: expect.any(String),
          state: expect.stringMatching(/^(catching_up|running|rebuilding)$/),
          checkpoint: expect.stringMatching(/^\d+$/),
          lag: expect.any(Number),
          behind_head: expect.any(Number),
        });
      }
      const access = res.body.data.find((p: any) => p.name === 'partner-access');
      expect(BigInt(access.checkpoint)).toBeGreaterThan(0n);
    });

    it('POST /platform/projections/partner-list/rebuild is 202 and the list keeps answering', async () => {
      const partners = [await platform().newPartner(), await platform().newPartner()];
      const before = await platform().operator.get('/platform/partners?page_size=100');
      expect(before.status).toBe(200);
      const rebuild = await platform().operator.post('/platform/projections/partner-list/rebuild');
      expect(rebuild.status).toBe(202);
      expect(rebuild.body).toEqual({ name: 'partner-list', state: 'rebuilding' });

      const deadline = Date.now() + 15_000;
      let state = 'rebuilding';
      while (Date.now() < deadline) {
        const during = await platform().operator.get('/platform/partners?page_size=100');
        expect(during.status).toBe(200);
        const ids = during.body.data.map((p: any) => p.id);
        for (const partner of partners) expect(ids).toContain(partner.id);
        const status = await platform().operator.get('/platform/projections');
        state = status.body.data.find((p: any) => p.name === 'partner-list').state;
        if (state !== 'rebuilding') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(state).toBe('running');
      const after = await platform().operator.get('/platform/partners?page_size=100');
      expect(after.body.data).toEqual(before.body.data);
      expect(after.body.pagination.total_count).toBe(before.body.pagination.total_count);
    });

    it('rebuilding an unknown projection is 404 projection_not_found', async () => {
      expectProblem(
        await platform().operator.post('/platform/projections/no-such/rebuild'),
        404,
        'projection_not_found',
      );
    });
  });

  describe('sandbox clock', () => {
    it('GET answers now; POST advance_seconds moves it forward', async () => {
      const before = await platform().operator.get('/platform/sandbox/clock');
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ now: expect.stringMatching(ISO_TIMESTAMP) });
      const advanced = await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 3600 });
      expect(advanced.status).toBe(200);
      expect(advanced.body).toEqual({ now: expect.stringMatching(ISO_TIMESTAMP) });
      const moved = Date.parse(advanced.body.now) - Date.parse(before.body.now);
      expect(moved).toBeGreaterThanOrEqual(3600_000);
      expect(moved).toBeLessThan(3600_000 + 30_000);
      const after = await platform().operator.get('/platform/sandbox/clock');
      expect(Date.parse(after.body.now)).toBeGreaterThanOrEqual(Date.parse(advanced.body.now));
      // New records are stamped with the sandbox time.
      const partner = await platform().newPartner();
      const me = await partner.client.get('/partner/me');
      expect(Date.parse(me.body.created_at)).toBeGreaterThanOrEqual(Date.parse(advanced.body.now));
    });

    it('refuses advance_seconds that is 0, negative, fractional, a string or missing', async () => {
      for (const body of [
        { advance_seconds: 0 },
        { advance_seconds: -5 },
        { advance_seconds: 1.5 },
        { advance_seconds: '60' },
        { advance_seconds: null },
        {},
      ]) {
        expectValidationError(await platform().operator.post('/platform/sandbox/clock', body), [
          'advance_seconds',
        ]);
      }
      expectValidationError(
        await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 1, x: 1 }),
        ['x'],
      );
    });

    it('a partner key cannot move the clock', async () => {
      const partner = await platform().newPartner();
      expectProblem(
        await partner.client.post('/platform/sandbox/clock', { advance_seconds: 60 }),
        403,
        'unauthorized',
      );
    });
  });

  describe('in production', () => {
    it('the sandbox clock does not exist (404), while the rest of the platform tier works', async () => {
      const operatorKey = generateKey('cop').key;
      const service = await startTestService({
        APP_ENV: 'production',
        PLATFORM_OPERATOR_KEY: operatorKey,
        VAULT_KEY: 'q83vEjRWeJASNFZ4kBI0VniQEjRWeJASNFZ4kBI0VnE=',
      });
      try {
        const operator = new ApiClient(service, operatorKey);
        expectProblem(await operator.get('/platform/sandbox/clock'), 404, 'not_found');
        expectProblem(
          await operator.post('/platform/sandbox/clock', { advance_seconds: 60 }),
          404,
          'not_found',
        );
        const created = await operator.post('/platform/partners', {
          name: 'Prod Partner',
          contact_email: 'prod@example.test',
          contact_name: 'Prod Person',
        });
        expect(created.status).toBe(201);
        // A production key is a live key.
        const key = await operator.post(`/platform/partners/${created.body.id}/api-keys`, {});
        const me = await new ApiClient(service, key.body.api_key).get('/partner/me');
        expect(me.body.has_live_key).toBe(true);
        // The sandbox's operator key means nothing here.
        expectProblem(
          await new ApiClient(service, platform().operator.key).get('/platform/partners'),
          401,
          'unauthorized',
        );

        // Going live in production needs the partner CERTIFIED: the gate says so until it is.
        const partnerClient = new ApiClient(service, key.body.api_key);
        const merchant = await partnerClient.post('/merchants', {
          business_name: 'Prod Cafe',
          contact_email: 'cafe@example.test',
          contact_name: 'Cafe Owner',
          merchant_category_code: '5812',
        });
        const gate = async () =>
          (await partnerClient.get(`/merchants/${merchant.body.id}/go-live-gate`)).body.checks.find(
            (c: any) => c.code === 'partner_certified',
          );
        expect(await gate()).toMatchObject({ passed: false, detail: 'partner certification is PENDING' });
        await operator.put(`/platform/partners/${created.body.id}/certification`, { status: 'CERTIFIED' });
        expect(await gate()).toMatchObject({ passed: true });
      } finally {
        await service.close();
      }
    }, 60_000);
  });
});
