/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP } from '../support/problems';

/** The catalog as a partner sees it on creation: name, default, self-service, dependencies. */
const CATALOG = [
  ['ach_payments', false, true, []],
  ['stored_credentials', true, true, []],
  ['recurring_billing', true, true, ['stored_credentials']],
  ['installments', false, true, ['recurring_billing']],
  ['hosted_payment_pages', true, true, []],
  ['custom_fields', true, true, []],
  ['convenience_fees', false, true, []],
  ['surcharging', false, false, []],
  ['level2_level3_data', false, true, []],
  ['terminals', false, false, []],
  ['three_d_secure', false, true, []],
] as const;

const FLAG_FIELDS = [
  'flag_name',
  'display_name',
  'description',
  'enabled',
  'globally_available',
  'depends_on',
  'unmet_dependencies',
];

describe('partner configuration, feature flags and catalogs', () => {
  const platform = useTestPlatform();

  const prefixOf = (partner: TestPartner) => partner.key.slice(4, 12);
  const flags = async (partner: TestPartner) =>
    (await partner.client.get('/config/feature-flags/me')).body as any[];
  const flag = async (partner: TestPartner, name: string) =>
    (await flags(partner)).find((f) => f.flag_name === name);
  const setFlag = (partner: TestPartner, name: string, body: unknown) =>
    partner.client.put(`/config/feature-flags/me/${name}`, body);
  const version = async (partner: TestPartner) =>
    (await partner.client.get('/partner/me')).body.version as number;

  describe('GET /config/feature-flags/me', () => {
    it('lists every catalog flag with the spec fields and computed unmet dependencies', async () => {
      const partner = await platform().newPartner();
      const res = await partner.client.get('/config/feature-flags/me');
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.map((f: any) => [f.flag_name, f.enabled, f.globally_available, f.depends_on])).toEqual(
        CATALOG.map(([name, enabled, available, dependsOn]) => [name, enabled, available, dependsOn]),
      );
      for (const f of res.body) {
        expect(Object.keys(f).sort()).toEqual([...FLAG_FIELDS].sort());
        expect(f.display_name.length).toBeGreaterThan(0);
        expect(f.description.length).toBeGreaterThan(0);
      }
      const byName = Object.fromEntries(res.body.map((f: any) => [f.flag_name, f]));
      // stored_credentials and recurring_billing are on by default, installments is not.
      expect(byName.recurring_billing.unmet_dependencies).toEqual([]);
      expect(byName.installments).toMatchObject({ enabled: false, unmet_dependencies: [] });
      expect(byName.ach_payments.unmet_dependencies).toEqual([]);
    });
  });

  describe('PUT /config/feature-flags/me/{flagName}', () => {
    it('enables a flag: the feature flag setting, the capability, the flag view, the version', async () => {
      const partner = await platform().newPartner();
      const before = await version(partner);
      const res = await setFlag(partner, 'ach_payments', { enabled: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        flag_name: 'ach_payments',
        partner_id: partner.id,
        enabled: true,
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_by: `partner-key:${prefixOf(partner)}`,
        version: before + 1,
      });
      expect((await partner.client.get('/capabilities')).body.enabled_features).toEqual([
        'ach_payments',
        'custom_fields',
        'hosted_payment_pages',
        'recurring_billing',
        'stored_credentials',
      ]);
      expect(await flag(partner, 'ach_payments')).toMatchObject({ enabled: true, unmet_dependencies: [] });
      expect(await version(partner)).toBe(before + 1);

      // The same value again records nothing and answers the current setting.
      const again = await setFlag(partner, 'ach_payments', { enabled: true });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);

      const off = await setFlag(partner, 'ach_payments', { enabled: false });
      expect(off.body).toMatchObject({ enabled: false, version: before + 2 });
      expect((await partner.client.get('/capabilities')).body.enabled_features).not.toContain('ach_payments');
    });

    it('requires a boolean enabled and nothing else', async () => {
      const partner = await platform().newPartner();
      expectValidationError(await setFlag(partner, 'ach_payments', {}), ['enabled']);
      expectValidationError(await setFlag(partner, 'ach_payments', { enabled: 'true' }), ['enabled']);
      expectValidationError(await setFlag(partner, 'ach_payments', { enabled: 1 }), ['enabled']);
      expectValidationError(await setFlag(partner, 'ach_payments', { enabled: null }), ['enabled']);
      expectValidationError(await setFlag(partner, 'ach_payments', { enabled: true, note: 'x' }), ['note']);
      expectValidationError(
        await setFlag(partner, 'ach_payments', { enabled: true, globally_available: true }),
        ['globally_available'],
      );
      expectValidationError(await setFlag(partner, 'ach_payments', [true]), ['body']);
      expect((await flag(partner, 'ach_payments')).enabled).toBe(false);
      expect(await version(partner)).toBe(4); // created, key, and the two certification facts
    });

    it('refuses a malformed flag name with 400 and an unknown one with 404', async () => {
      const partner = await platform().newPartner();
      for (const name of ['ACH', 'a-b', 'ach%20payments', '_ach', 'ach__payments', 'ach_']) {
        expectValidationError(await setFlag(partner, name, { enabled: true }), ['flagName']);
      }
      expectProblem(await setFlag(partner, 'no_such_flag', { enabled: true }), 404, 'feature_flag_not_found');
      expectProblem(
        await setFlag(partner, 'a'.repeat(100), { enabled: true }),
        404,
        'feature_flag_not_found',
      );
      expectProblem(await setFlag(partner, 'x', { enabled: true }), 404, 'feature_flag_not_found');
    });

    // Fastify's default maxParamLength (100) would answer 414 before the app sees the name.
    it('refuses a 101-character flag name with 400 like any other malformed name', async () => {
      const partner = await platform().newPartner();
      expectValidationError(await setFlag(partner, 'a'.repeat(101), { enabled: true }), ['flagName']);
    });

    it('an operator-managed flag is 403 until the operator makes it globally available', async () => {
      const partner = await platform().newPartner();
      expectProblem(
        await setFlag(partner, 'surcharging', { enabled: true }),
        403,
        'feature_flag_operator_managed',
      );
      expectProblem(
        await setFlag(partner, 'terminals', { enabled: true }),
        403,
        'feature_flag_operator_managed',
      );
      // Even a no-op is refused: the partner may not touch it at all.
      expectProblem(
        await setFlag(partner, 'terminals', { enabled: false }),
        403,
        'feature_flag_operator_managed',
      );
      expect(await version(partner)).toBe(4); // created, key, two certification facts

      const opened = await platform().operator.put(
        `/platform/partners/${partner.id}/feature-flags/surcharging`,
        {
          enabled: false,
          globally_available: true,
        },
      );
      expect(opened.status).toBe(200);
      expect(await flag(partner, 'surcharging')).toMatchObject({ enabled: false, globally_available: true });
      const enabled = await setFlag(partner, 'surcharging', { enabled: true });
      expect(enabled.status).toBe(200);
      expect(enabled.body).toMatchObject({ flag_name: 'surcharging', enabled: true });
      expect((await partner.client.get('/capabilities')).body.enabled_features).toContain('surcharging');
      // terminals is still the operator's.
      expectProblem(
        await setFlag(partner, 'terminals', { enabled: true }),
        403,
        'feature_flag_operator_managed',
      );
    });

    it('enforces dependencies both ways', async () => {
      const partner = await platform().newPartner();
      // recurring_billing is on by default and needs stored_credentials: it goes first.
      expect((await setFlag(partner, 'recurring_billing', { enabled: false })).status).toBe(200);
      expect((await setFlag(partner, 'stored_credentials', { enabled: false })).status).toBe(200);
      expect(await flag(partner, 'recurring_billing')).toMatchObject({
        depends_on: ['stored_credentials'],
        unmet_dependencies: ['stored_credentials'],
      });
      expectProblem(
        await setFlag(partner, 'recurring_billing', { enabled: true }),
        422,
        'feature_flag_dependencies_unmet',
        { detail: expect.stringContaining('stored_credentials') },
      );
      expect((await flag(partner, 'recurring_billing')).enabled).toBe(false);

      expect((await setFlag(partner, 'stored_credentials', { enabled: true })).status).toBe(200);
      expect((await setFlag(partner, 'recurring_billing', { enabled: true })).status).toBe(200);
      expect(await flag(partner, 'installments')).toMatchObject({ unmet_dependencies: [] });
      expect((await setFlag(partner, 'installments', { enabled: true })).status).toBe(200);

      expectProblem(
        await setFlag(partner, 'stored_credentials', { enabled: false }),
        422,
        'feature_flag_required_by',
        { detail: expect.stringContaining('recurring_billing') },
      );
      expectProblem(
        await setFlag(partner, 'recurring_billing', { enabled: false }),
        422,
        'feature_flag_required_by',
        {
          detail: expect.stringContaining('installments'),
        },
      );
      expect((await flag(partner, 'stored_credentials')).enabled).toBe(true);
      // Undone from the top, each step is allowed.
      expect((await setFlag(partner, 'installments', { enabled: false })).status).toBe(200);
      expect((await setFlag(partner, 'recurring_billing', { enabled: false })).status).toBe(200);
      expect((await setFlag(partner, 'stored_credentials', { enabled: false })).status).toBe(200);
    });
  });

  describe('catalogs', () => {
    it('GET /config/mcc-catalog: four-digit codes with label, risk and BAA requirement', async () => {
      const partner = await platform().newPartner();
      const res = await partner.client.get('/config/mcc-catalog');
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(100);
      for (const item of res.body) {
        expect(Object.keys(item).sort()).toEqual(['baa_requirement', 'code', 'label', 'risk']);
        expect(item.code).toMatch(/^[0-9]{4}$/);
        expect(item.label.length).toBeGreaterThan(0);
        expect(['green', 'yellow', 'red']).toContain(item.risk);
        expect(['required', 'not_required']).toContain(item.baa_requirement);
      }
      expect(new Set(res.body.map((i: any) => i.code)).size).toBe(res.body.length);
      const byCode = Object.fromEntries(res.body.map((i: any) => [i.code, i]));
      expect(byCode['5812']).toEqual({
        code: '5812',
        label: 'Eating Places and Restaurants',
        risk: 'green',
        baa_requirement: 'not_required',
      });
      expect(byCode['8011']).toMatchObject({ baa_requirement: 'required' });
      expect(byCode['7995']).toMatchObject({ risk: 'red' });
    });

    it('GET /config/us-states: code and name, DC and PR included', async () => {
      const partner = await platform().newPartner();
      const res = await partner.client.get('/config/us-states');
      expect(res.status).toBe(200);
      for (const item of res.body) {
        expect(Object.keys(item).sort()).toEqual(['code', 'name']);
        expect(item.code).toMatch(/^[A-Z]{2}$/);
      }
      expect(res.body).toEqual(
        expect.arrayContaining([
          { code: 'DC', name: 'District of Columbia' },
          { code: 'PR', name: 'Puerto Rico' },
          { code: 'CA', name: 'California' },
          { code: 'NY', name: 'New York' },
        ]),
      );
      expect(res.body.length).toBeGreaterThanOrEqual(51);
      expect(new Set(res.body.map((i: any) => i.code)).size).toBe(res.body.length);
    });

    it('need config:read', async () => {
      const partner = await platform().newPartner({ scopes: ['partner:read'] });
      expectProblem(await partner.client.get('/config/mcc-catalog'), 403, 'unauthorized');
      expectProblem(await partner.client.get('/config/us-states'), 403, 'unauthorized');
    });
  });

  describe('GET and PUT /config/partners/{partnerId}', () => {
    let partner: TestPartner;
    let current: any;
    const path = () => `/config/partners/${partner.id}`;
    const put = (body: unknown, idempotencyKey?: string) =>
      partner.client.put(path(), body, { idempotencyKey });

    /**
     * A change answers the configuration with version + 1 (+ 2 when it also records a
     * certification fact, as the first webhook URL does) and everything else as before.
     */
    async function expectChange(body: unknown, changes: Record<string, unknown>, events = 1) {
      const res = await put(body);
      expect(res.status).toBe(200);
      const expected = { ...current, ...changes, version: current.version + events };
      expect(res.body).toEqual(expected);
      expect((await partner.client.get(path())).body).toEqual(expected);
      current = expected;
    }

    /** No change: the same configuration, the same version. */
    async function expectNoChange(body: unknown) {
      const res = await put(body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(current);
    }

    async function expectRefused(body: unknown, fields: string[]) {
      expectValidationError(await put(body), fields);
      expect((await partner.client.get(path())).body).toEqual(current);
    }

    beforeAll(async () => {
      partner = await platform().newPartner();
    });

    it('GET answers every field of the spec', async () => {
      const res = await partner.client.get(path());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        partner_id: partner.id,
        api_version: '2026-09-01',
        webhook_url: null,
        rate_limit_tier: 'STANDARD',
        hpp_settings: { gateway_hpp_page_id: null, accepted_methods: ['credit_card', 'debit_card', 'ach'] },
        ip_allowlist: [],
        avs_decline_policy: 'NEVER_DECLINE',
        version: 3, // created, key, and the key's certification fact
      });
      current = res.body;
      expectValidationError(await partner.client.get('/config/partners/not-a-uuid'), ['partnerId']);
      expectProblem(await partner.client.get(`/config/partners/${randomUUID()}`), 404, 'partner_not_found');
    });

    it('webhook_url: set, left alone by null or omission, cleared by the empty string', async () => {
      await expectChange(
        { webhook_url: 'https://hooks.example.com/payments' },
        { webhook_url: 'https://hooks.example.com/payments' },
        2, // PartnerSettingsChanged and the WEBHOOK_URL_CONFIGURED certification fact
      );
      await expectNoChange({});
      await expectNoChange({ webhook_url: null });
      await expectNoChange({ webhook_url: null, ip_allowlist: null, hpp_settings: null });
      await expectNoChange({ webhook_url: 'https://hooks.example.com/payments' });
      // Sandbox lets a partner test against a local receiver.
      await expectChange(
        { webhook_url: 'http://127.0.0.1:8080/hook' },
        { webhook_url: 'http://127.0.0.1:8080/hook' },
      );
      await expectChange({ webhook_url: '' }, { webhook_url: null });
      await expectNoChange({ webhook_url: '' });
    });

    it('webhook_url: refuses what cannot receive a webhook', async () => {
      for (const url of [
        'not a url',
        'ftp://files.example.com/hook',
        'https://user:pw@hooks.example.com/',
        'https://hooks.example.com/#frag',
        'http://169.254.169.254/latest',
        'http://10.0.0.5/hook',
      ]) {
        await expectRefused({ webhook_url: url }, ['webhook_url']);
      }
      await expectRefused({ webhook_url: 42 }, ['webhook_url']);
    });

    it('ip_allowlist: valid IPv4 and IPv6 entries, normalised, in the order given', async () => {
      await expectChange(
        {
          ip_allowlist: [
            '127.0.0.1/32',
            '10.0.0.0/8',
            '2001:DB8::/32',
            '192.168.1.7',
            '::ffff:10.1.2.3',
            '::1',
          ],
        },
        {
          ip_allowlist: [
            '127.0.0.1/32',
            '10.0.0.0/8',
            '2001:db8::/32',
            '192.168.1.7/32',
            '10.1.2.3/32',
            '::1/128',
          ],
        },
      );
      // Duplicates collapse; the same list again is no change.
      await expectNoChange({
        ip_allowlist: [
          '127.0.0.1',
          '10.0.0.0/8',
          '2001:db8::/32',
          '192.168.1.7',
          '10.1.2.3',
          '::1',
          '::1/128',
        ],
      });
      expect((await partner.client.get('/capabilities')).status).toBe(200); // still allowed from 127.0.0.1
    });

    it('ip_allowlist: host bits, /33, /129 and garbage are 400 naming the entry', async () => {
      await expectRefused({ ip_allowlist: ['127.0.0.1/32', '10.0.0.1/8'] }, ['ip_allowlist[1]']);
      await expectRefused({ ip_allowlist: ['1.2.3.4/33'] }, ['ip_allowlist[0]']);
      await expectRefused({ ip_allowlist: ['2001:db8::/129'] }, ['ip_allowlist[0]']);
      await expectRefused({ ip_allowlist: ['127.0.0.1', 'garbage', '300.1.1.1', '10.0.0.0/'] }, [
        'ip_allowlist[1]',
        'ip_allowlist[2]',
        'ip_allowlist[3]',
      ]);
      await expectRefused({ ip_allowlist: '10.0.0.0/8' }, ['ip_allowlist']);
      const res = await put({ ip_allowlist: ['10.0.0.1/8'] });
      expect(res.body.errors[0].message).toContain('10.0.0.0/8');
      const tooMany = Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`);
      await expectRefused({ ip_allowlist: tooMany }, ['ip_allowlist']);
    });

    it('hpp_settings.accepted_methods: a set of known methods, stored in canonical order', async () => {
      await expectChange(
        { hpp_settings: { accepted_methods: ['ach', 'credit_card'] } },
        { hpp_settings: { gateway_hpp_page_id: null, accepted_methods: ['credit_card', 'ach'] } },
      );
      await expectNoChange({ hpp_settings: { accepted_methods: ['credit_card', 'ach'] } });
      await expectNoChange({ hpp_settings: {} });
      await expectNoChange({ hpp_settings: { accepted_methods: null } });
      await expectRefused({ hpp_settings: { accepted_methods: ['credit_card', 'paypal'] } }, [
        'hpp_settings.accepted_methods[1]',
      ]);
      await expectRefused({ hpp_settings: { accepted_methods: [] } }, ['hpp_settings.accepted_methods']);
      await expectRefused({ hpp_settings: { accepted_methods: ['ach', 'ach'] } }, [
        'hpp_settings.accepted_methods[1]',
      ]);
      await expectRefused({ hpp_settings: { gateway_hpp_page_id: 'page-1' } }, [
        'hpp_settings.gateway_hpp_page_id',
      ]);
    });

    it('operator-managed and unknown fields are 400 naming the field, whatever their value', async () => {
      for (const [field, value] of [
        ['rate_limit_tier', 'ENTERPRISE'],
        ['rate_limit_tier', null],
        ['avs_decline_policy', 'DECLINE_ON_NO_MATCH'],
        ['api_version', '2030-01-01'],
        ['version', 7],
        ['partner_id', randomUUID()],
        ['webhook', 'https://x.example'],
      ] as const) {
        const res = await put({ webhook_url: 'https://other.example.com/', [field]: value });
        expectValidationError(res, [field]);
      }
      const res = await put({ rate_limit_tier: 'ENTERPRISE' });
      expect(res.body.errors[0].message).toMatch(/operator/);
      expect((await partner.client.get(path())).body).toEqual(current);
      expect((await partner.client.get('/capabilities')).body.rate_limit_tier).toBe('STANDARD');
    });

    it('several fields change in one event; the stream holds each change with its metadata', async () => {
      await expectChange(
        {
          webhook_url: 'https://hooks.example.com/v2',
          ip_allowlist: [],
          hpp_settings: { accepted_methods: ['debit_card'] },
        },
        {
          webhook_url: 'https://hooks.example.com/v2',
          ip_allowlist: [],
          hpp_settings: { gateway_hpp_page_id: null, accepted_methods: ['debit_card'] },
        },
      );
      const res = await put({ webhook_url: 'https://hooks.example.com/v3' }, 'settings-change-final');
      expect(res.status).toBe(200);
      current = res.body;

      const stream = await platform().operator.get(
        `/platform/streams/partner-${partner.id}/events?limit=1000`,
      );
      const events = stream.body.data;
      expect(events).toHaveLength(current.version);
      expect((await partner.client.get(`/iam/partners/${partner.id}`)).body.version).toBe(current.version);
      const settings = events.filter((e: any) => e.type === 'PartnerSettingsChanged');
      expect(
        settings.map((e: any) =>
          Object.keys(e.data)
            .filter((k) => k !== 'partnerId' && k !== 'changedAt')
            .sort(),
        ),
      ).toEqual([
        ['webhookUrl'],
        ['webhookUrl'],
        ['webhookUrl'],
        ['ipAllowlist'],
        ['acceptedMethods'],
        ['acceptedMethods', 'ipAllowlist', 'webhookUrl'],
        ['webhookUrl'],
      ]);
      expect(settings[2].data.webhookUrl).toBeNull();
      for (const event of settings) {
        expect(event.metadata).toMatchObject({
          actor: `partner-key:${prefixOf(partner)}`,
          partner_id: partner.id,
          request_id: expect.any(String),
          idempotency_key: expect.any(String),
        });
        expect(event.recorded_at).toMatch(ISO_TIMESTAMP);
      }
      expect(settings[settings.length - 1].metadata.idempotency_key).toBe('settings-change-final');
    });

    it('operator changes show in the partner configuration', async () => {
      await platform().operator.patch(`/platform/partners/${partner.id}/config`, {
        avs_decline_policy: 'DECLINE_ON_PARTIAL_MATCH',
      });
      const res = await partner.client.get(path());
      expect(res.body).toEqual({
        ...current,
        avs_decline_policy: 'DECLINE_ON_PARTIAL_MATCH',
        version: current.version + 1,
      });
    });
  });
});
