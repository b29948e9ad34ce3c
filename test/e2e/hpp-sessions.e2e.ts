/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { expiryMetadata, HppSessionExpiry } from '../../libs/hosted-pages/src/application/hpp-session-expiry';
import { CommandBus } from '@nestjs/cqrs';
import { RunHppSessionCommand } from '../../libs/hosted-pages/src/application/hpp-session-commands';
import { TO_ACTIVE } from '../support/payments';
import { useTestPlatform, type TestPartner } from '../support/api';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

const CREATE_FIELDS = [
  'id',
  'merchant_id',
  'payment_method',
  'state',
  'hpp_url',
  'iframe_url',
  'rendering_mode',
  'capture_mode',
  'amount_mode',
  'page_purpose',
  'recurring_plan',
  'customer_id',
  'amount',
  'surcharge_amount',
  'convenience_fee_amount',
  'total_amount',
  'currency',
  'expires_at',
  'created_at',
];

const READ_FIELDS = [
  ...CREATE_FIELDS,
  'tokenization_outcome',
  'vault_token',
  'transaction_id',
  'contract_id',
  'completed_at',
  'last_attempt',
  'card',
  'bank',
  'token_capture_failure',
  'level3_data',
];

const FEE_PROFILE = {
  pricing_model: 'FLAT_RATE',
  card_rate_bps: 290,
  card_fixed_fee: '0.30',
  ach_rate_bps: 80,
  ach_fixed_fee: '0.25',
  monthly_fee: '10.00',
  effective_date: '2026-12-01',
};

const THIRTY_MINUTES_MS = 30 * 60 * 1000;

describe('hosted payment page sessions: create, read, cancel, expiry', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  /** ACTIVE, in NY, surcharging 2.50% on credit cards. */
  let surcharged: string;
  /** ACTIVE, CARD_PRESENT, with a flat 1.50 convenience fee on card and ACH. */
  let convenient: string;
  /** ACTIVE, no fee programs. */
  let plain: string;

  const client = () => partner.client;
  const newMerchant = async (p: TestPartner, body: Record<string, unknown> = {}): Promise<string> => {
    const res = await p.client.post('/merchants', {
      business_name: 'Page Shop',
      contact_email: 'owner@page.test',
      contact_name: 'Pat Page',
      merchant_category_code: '5812',
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const activate = async (p: TestPartner, merchantId: string): Promise<void> => {
    expect((await p.client.post(`/merchants/${merchantId}/submit`)).status).toBe(200);
    for (const action of TO_ACTIVE) {
      const res = await platform().operator.post(`/platform/merchants/${merchantId}/transitions`, { action });
      expect([action, res.status]).toEqual([action, 200]);
    }
  };
  const flag = async (p: TestPartner, name: string) =>
    expect((await p.client.put(`/config/feature-flags/me/${name}`, { enabled: true })).status).toBe(200);
  const create = (body: Record<string, unknown>, p: TestPartner = partner) =>
    p.client.post('/hpp/sessions', body);
  const events = async (sessionId: string): Promise<any[]> => {
    const res = await platform().operator.get(`/platform/streams/hpp_session-${sessionId}/events`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    partner = await platform().newPartner({ name: 'Page Partner' });
    for (const name of ['ach_payments', 'recurring_billing', 'installments', 'convenience_fees']) {
      await flag(partner, name);
    }
    const operatorFlag = await platform().operator.put(
      `/platform/partners/${partner.id}/feature-flags/surcharging`,
      { enabled: true },
    );
    expect(operatorFlag.status).toBe(200);

    surcharged = await newMerchant(partner, { business_state: 'NY' });
    expect((await client().put(`/merchants/${surcharged}/fee-profile`, FEE_PROFILE)).status).toBe(201);
    const surcharge = await client().put(`/merchants/${surcharged}/fee-settings/surcharge`, {
      enabled: true,
      percent_bps: 250,
    });
    expect(surcharge.status).toBe(200);
    await activate(partner, surcharged);

    convenient = await newMerchant(partner, { channel: 'CARD_PRESENT', business_state: 'NY' });
    const fee = await client().put(`/merchants/${convenient}/fee-settings/convenience-fee`, {
      enabled: true,
      amount_type: 'FIXED',
      fixed_amount: '1.50',
      applies_to: ['card', 'ach'],
    });
    expect(fee.status).toBe(200);
    await activate(partner, convenient);

    plain = await newMerchant(partner);
    await activate(partner, plain);
  });

  describe('create', () => {
    it('a fixed card sale: defaults, absolute URLs under the service, 30 minutes to live, credit surcharge', async () => {
      const res = await create({ merchant_id: surcharged, amount: '100.00' });
      expect(res.status).toBe(201);
      const s = res.body;
      expect(Object.keys(s).sort()).toEqual([...CREATE_FIELDS].sort());
      const base = platform().service.url;
      expect(s).toEqual({
        id: expect.stringMatching(UUID),
        merchant_id: surcharged,
        payment_method: 'card',
        state: 'PENDING',
        hpp_url: `${base}/api/v1/hpp/${s.id}`,
        iframe_url: `${base}/api/v1/hpp/${s.id}?mode=iframe`,
        rendering_mode: 'redirect',
        capture_mode: 'sale',
        amount_mode: 'fixed',
        page_purpose: 'payment',
        recurring_plan: null,
        customer_id: null,
        amount: '100.00',
        surcharge_amount: '2.50',
        convenience_fee_amount: '0.00',
        total_amount: '102.50',
        currency: 'USD',
        expires_at: expect.stringMatching(ISO_TIMESTAMP),
        created_at: expect.stringMatching(ISO_TIMESTAMP),
      });
      expect(new URL(s.hpp_url).origin).toBe(new URL(base).origin);
      expect(Date.parse(s.expires_at) - Date.parse(s.created_at)).toBe(THIRTY_MINUTES_MS);

      const [created] = await events(s.id);
      expect(created).toMatchObject({
        type: 'HppSessionCreated',
        data: { sessionId: s.id, partnerId: partner.id, surchargeMinor: '250', totalMinor: '10250' },
        metadata: { actor: expect.stringMatching(/^partner-key:/), partner_id: partner.id },
      });
    });

    it('ACH is never surcharged; the convenience fee program prices card and ACH alike', async () => {
      const ach = await create({ merchant_id: surcharged, amount: '100.00', payment_method: 'ach' });
      expect(ach.status).toBe(201);
      expect(ach.body).toMatchObject({
        payment_method: 'ach',
        amount: '100.00',
        surcharge_amount: '0.00',
        convenience_fee_amount: '0.00',
        total_amount: '100.00',
      });
      for (const method of ['card', 'ach']) {
        const res = await create({ merchant_id: convenient, amount: '20.00', payment_method: method });
        expect(res.status).toBe(201);
        expect(res.body).toMatchObject({
          payment_method: method,
          amount: '20.00',
          surcharge_amount: '0.00',
          convenience_fee_amount: '1.50',
          total_amount: '21.50',
        });
      }
      const none = await create({ merchant_id: plain, amount: '20.00' });
      expect(none.body).toMatchObject({
        surcharge_amount: '0.00',
        convenience_fee_amount: '0.00',
        total_amount: '20.00',
      });
    });

    it('customer_entered on an iframe: no amount and no fees until the payer submits; authorization capture is 501', async () => {
      expectProblem(
        await create({ merchant_id: surcharged, amount: '5.00', capture_mode: 'authorization' }),
        501,
        'not_implemented',
      );
      const res = await create({
        merchant_id: surcharged,
        amount_mode: 'customer_entered',
        rendering_mode: 'iframe',
        capture_mode: 'sale',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        rendering_mode: 'iframe',
        capture_mode: 'sale',
        amount_mode: 'customer_entered',
        amount: null,
        surcharge_amount: null,
        convenience_fee_amount: null,
        total_amount: null,
      });
      expectValidationError(
        await create({ merchant_id: surcharged, amount_mode: 'customer_entered', amount: '5.00' }),
        ['amount'],
      );
      expectValidationError(
        await create({
          merchant_id: surcharged,
          amount: '5.00',
          payment_method: 'ach',
          capture_mode: 'authorization',
        }),
        ['capture_mode'],
      );
    });

    it('save_payment_method pages and saving payment pages require credential_usages', async () => {
      expectValidationError(await create({ merchant_id: plain, page_purpose: 'save_payment_method' }), [
        'credential_usages',
      ]);
      const save = await create({
        merchant_id: plain,
        page_purpose: 'save_payment_method',
        credential_usages: ['ONE_TIME_FUTURE', 'UNSCHEDULED_COF'],
      });
      expect(save.status).toBe(201);
      expect(save.body).toMatchObject({
        page_purpose: 'save_payment_method',
        capture_mode: null,
        amount_mode: null,
        amount: null,
        total_amount: null,
      });
      expectValidationError(
        await create({
          merchant_id: plain,
          page_purpose: 'save_payment_method',
          amount: '5.00',
          credential_usages: ['RECURRING'],
        }),
        ['amount'],
      );

      expectValidationError(await create({ merchant_id: plain, amount: '5.00', save_payment_method: true }), [
        'credential_usages',
      ]);
      expectValidationError(
        await create({
          merchant_id: plain,
          amount: '5.00',
          save_payment_method: true,
          credential_usages: [],
        }),
        ['credential_usages'],
      );
      expectValidationError(
        await create({ merchant_id: plain, amount: '5.00', credential_usages: ['RECURRING'] }),
        ['credential_usages'],
      );
      const saving = await create({
        merchant_id: plain,
        amount: '5.00',
        save_payment_method: true,
        credential_usages: ['ONE_TIME_FUTURE'],
      });
      expect(saving.status).toBe(201);

      const read = await client().get(`/hpp/sessions/${saving.body.id}`);
      expect(read.body.tokenization_outcome).toBe('pending');
      const readSave = await client().get(`/hpp/sessions/${save.body.id}`);
      expect(readSave.body.tokenization_outcome).toBe('pending');
    });

    it('a recurring plan: fixed payment pages only, with RECURRING or INSTALLMENT usages', async () => {
      const plan = { recurring_amount: '25.00', frequency: 'monthly', interval: 1, number_of_payments: 12 };
      const res = await create({
        merchant_id: plain,
        amount: '25.00',
        recurring_plan: plan,
        credential_usages: ['RECURRING'],
      });
      expect(res.status).toBe(201);
      expect(res.body.recurring_plan).toEqual({ ...plan, initial_charge_amount: null });

      const installments = await create({
        merchant_id: plain,
        amount: '25.00',
        recurring_plan: { recurring_amount: '25.00', frequency: 'weekly', initial_charge_amount: '25.00' },
        credential_usages: ['INSTALLMENT'],
      });
      expect(installments.status).toBe(201);
      expect(installments.body.recurring_plan).toEqual({
        recurring_amount: '25.00',
        frequency: 'weekly',
        interval: 1,
        number_of_payments: null,
        initial_charge_amount: '25.00',
      });

      const bad = (extra: Record<string, unknown>) =>
        create({ merchant_id: plain, amount: '25.00', credential_usages: ['RECURRING'], ...extra });
      expectValidationError(await bad({ recurring_plan: { ...plan, frequency: 'MONTHLY' } }), [
        'recurring_plan.frequency',
      ]);
      expectValidationError(await bad({ recurring_plan: { ...plan, number_of_payments: 1 } }), [
        'recurring_plan.number_of_payments',
      ]);
      expectValidationError(await bad({ recurring_plan: { ...plan, interval: 0 } }), [
        'recurring_plan.interval',
      ]);
      expectValidationError(await bad({ recurring_plan: { ...plan, initial_charge_amount: '1.00' } }), [
        'recurring_plan.initial_charge_amount',
      ]);
      expectValidationError(await bad({ recurring_plan: plan, save_payment_method: false }), [
        'save_payment_method',
      ]);
      expectValidationError(
        await create({
          merchant_id: plain,
          amount: '25.00',
          recurring_plan: plan,
          credential_usages: ['ONE_TIME_FUTURE'],
        }),
        ['credential_usages'],
      );
      expectValidationError(
        await create({
          merchant_id: plain,
          amount_mode: 'customer_entered',
          recurring_plan: plan,
          credential_usages: ['RECURRING'],
        }),
        ['recurring_plan'],
      );
    });

    it('customer_id must be a live customer of the same merchant', async () => {
      const own = await client().post(`/merchants/${plain}/customers`, { email: 'payer@page.test' });
      const other = await client().post(`/merchants/${surcharged}/customers`, { email: 'payer@page.test' });
      const res = await create({ merchant_id: plain, amount: '5.00', customer_id: own.body.id });
      expect(res.status).toBe(201);
      expect(res.body.customer_id).toBe(own.body.id);
      expectProblem(
        await create({ merchant_id: plain, amount: '5.00', customer_id: other.body.id }),
        404,
        'customer_not_found',
      );
      expectProblem(
        await create({ merchant_id: plain, amount: '5.00', customer_id: randomUUID() }),
        404,
        'customer_not_found',
      );
      await client().delete(`/merchants/${plain}/customers/${own.body.id}`);
      expectProblem(
        await create({ merchant_id: plain, amount: '5.00', customer_id: own.body.id }),
        404,
        'customer_not_found',
      );
      expectValidationError(await create({ merchant_id: plain, amount: '5.00', customer_id: 'nope' }), [
        'customer_id',
      ]);
    });

    it('refuses malformed bodies naming every field', async () => {
      expectValidationError(await create({ amount: '5.00' }), ['merchant_id']);
      expectValidationError(await create({ merchant_id: plain }), ['amount']);
      expectValidationError(await create({ merchant_id: plain, amount: 5 }), ['amount']);
      expectValidationError(await create({ merchant_id: plain, amount: '0.00' }), ['amount']);
      expectValidationError(await create({ merchant_id: plain, amount: '5.001' }), ['amount']);
      expectValidationError(
        await create({ merchant_id: plain, amount: '5.00', return_url: 'https://x.test' }),
        ['return_url'],
      );
      expectValidationError(
        await create({ merchant_id: plain, amount: '5.00', payment_method: 'cash', rendering_mode: 'popup' }),
        ['payment_method', 'rendering_mode'],
      );
      expectValidationError(await create({ merchant_id: plain, amount: '5.00', currency: 'EUR' }), [
        'currency',
      ]);
      const empty = await client().call('POST', '/hpp/sessions', {});
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('validation_error');
    });

    it('the merchant must be the partner’s and able to transact', async () => {
      const draft = await newMerchant(partner);
      expectProblem(await create({ merchant_id: draft, amount: '5.00' }), 422, 'merchant_not_transactable');
      expectProblem(await create({ merchant_id: randomUUID(), amount: '5.00' }), 404, 'merchant_not_found');
      const other = await platform().newPartner({ name: 'Other Partner' });
      expectProblem(await create({ merchant_id: plain, amount: '5.00' }, other), 404, 'merchant_not_found');
    });

    it('checks custom fields against the merchant’s configuration and stores them normalised', async () => {
      const merchant = await newMerchant(partner);
      const fields = await client().put(`/config/custom-fields/merchants/${merchant}`, {
        fields: [{ name: 'invoice_ref', isRequired: true, maxLength: 20, regEx: '^INV-[0-9]+$' }],
      });
      expect(fields.status).toBe(200);
      await activate(partner, merchant);

      const missing = await create({ merchant_id: merchant, amount: '5.00' });
      expectProblem(missing, 422, 'custom_fields_invalid', {
        errors: [{ field: 'custom_fields', message: expect.stringContaining('invoice_ref') }],
      });
      expectProblem(
        await create({
          merchant_id: merchant,
          amount: '5.00',
          custom_fields: [{ name: 'invoice_ref', value: 'X' }],
        }),
        422,
        'custom_fields_invalid',
        { errors: [{ field: 'custom_fields[0].value', message: expect.any(String) }] },
      );
      expectProblem(
        await create({
          merchant_id: merchant,
          amount: '5.00',
          custom_fields: [
            { name: 'invoice_ref', value: 'INV-1' },
            { name: 'unknown', value: 'x' },
          ],
        }),
        422,
        'custom_fields_invalid',
      );
      expectValidationError(await create({ merchant_id: merchant, amount: '5.00', custom_fields: {} }), [
        'custom_fields',
      ]);
      const ok = await create({
        merchant_id: merchant,
        amount: '5.00',
        custom_fields: [{ name: 'INVOICE_REF', value: ' INV-42 ' }],
      });
      expect(ok.status).toBe(201);
      const [created] = await events(ok.body.id);
      expect(created.data.customFields).toEqual([{ name: 'invoice_ref', value: 'INV-42' }]);
    });

    it('session variants need their feature flags', async () => {
      const other = await platform().newPartner({ name: 'Flagless' });
      const merchant = await newMerchant(other);
      await activate(other, merchant);
      expectProblem(
        await create({ merchant_id: merchant, amount: '5.00', payment_method: 'ach' }, other),
        403,
        'feature_not_enabled',
      );
      // recurring_billing is on for a new partner.
      expect(
        (await other.client.put('/config/feature-flags/me/recurring_billing', { enabled: false })).status,
      ).toBe(200);
      expectProblem(
        await create(
          {
            merchant_id: merchant,
            amount: '5.00',
            recurring_plan: { recurring_amount: '5.00', frequency: 'monthly' },
            credential_usages: ['RECURRING'],
          },
          other,
        ),
        403,
        'feature_not_enabled',
      );
      expect((await create({ merchant_id: merchant, amount: '5.00' }, other)).status).toBe(201);
      expect(
        (await other.client.put('/config/feature-flags/me/stored_credentials', { enabled: false })).status,
      ).toBe(200);
      expectProblem(
        await create(
          { merchant_id: merchant, page_purpose: 'save_payment_method', credential_usages: ['RECURRING'] },
          other,
        ),
        403,
        'feature_not_enabled',
      );
      expect(
        (await other.client.put('/config/feature-flags/me/hosted_payment_pages', { enabled: false })).status,
      ).toBe(200);
      expectProblem(
        await create({ merchant_id: merchant, amount: '5.00' }, other),
        403,
        'feature_not_enabled',
      );
    });

    it('replays an idempotent create: same key, same session', async () => {
      const key = randomUUID();
      const body = { merchant_id: plain, amount: '7.00' };
      const first = await client().post('/hpp/sessions', body, { idempotencyKey: key });
      const again = await client().post('/hpp/sessions', body, { idempotencyKey: key });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('x-idempotent-replay')).toBe('true');
      expect(await events(first.body.id)).toHaveLength(1);
      expectValidationError(await client().post('/hpp/sessions', body, { idempotencyKey: null }), [
        'Idempotency-Key',
      ]);
    });
  });

  describe('read and cancel', () => {
    it('reads the read form; cancel answers it CANCELLED, a second cancel is 409', async () => {
      const { body: created } = await create({ merchant_id: plain, amount: '9.99' });
      const read = await client().get(`/hpp/sessions/${created.id}`);
      expect(read.status).toBe(200);
      expect(Object.keys(read.body).sort()).toEqual([...READ_FIELDS].sort());
      expect(read.body).toEqual({
        ...created,
        tokenization_outcome: 'not_requested',
        vault_token: null,
        transaction_id: null,
        contract_id: null,
        completed_at: null,
        last_attempt: null,
        card: null,
        bank: null,
        token_capture_failure: null,
        level3_data: null,
      });

      expectValidationError(
        await client().post(`/hpp/sessions/${created.id}/cancel`, undefined, { idempotencyKey: null }),
        ['Idempotency-Key'],
      );
      const cancelled = await client().post(`/hpp/sessions/${created.id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toEqual({ ...read.body, state: 'CANCELLED' });
      expect((await client().get(`/hpp/sessions/${created.id}`)).body.state).toBe('CANCELLED');
      expectProblem(
        await client().post(`/hpp/sessions/${created.id}/cancel`),
        409,
        'invalid_state_transition',
      );
      expect((await events(created.id)).map((e) => e.type)).toEqual([
        'HppSessionCreated',
        'HppSessionCancelled',
      ]);
    });

    it('another partner’s or an unknown session is 404; a malformed id is 400', async () => {
      const { body: created } = await create({ merchant_id: plain, amount: '1.00' });
      const other = await platform().newPartner({ name: 'Snooper' });
      expectProblem(await other.client.get(`/hpp/sessions/${created.id}`), 404, 'hpp_session_not_found');
      expectProblem(
        await other.client.post(`/hpp/sessions/${created.id}/cancel`),
        404,
        'hpp_session_not_found',
      );
      expectProblem(await client().get(`/hpp/sessions/${randomUUID()}`), 404, 'hpp_session_not_found');
      expectProblem(
        await client().post(`/hpp/sessions/${randomUUID()}/cancel`),
        404,
        'hpp_session_not_found',
      );
      expectValidationError(await client().get('/hpp/sessions/not-a-uuid'), ['sessionId']);
      expect((await client().get(`/hpp/sessions/${created.id}`)).body.state).toBe('PENDING');
    });

    it('scopes: hpp_session:write to create and cancel, hpp_session:read to read', async () => {
      const { body: created } = await create({ merchant_id: plain, amount: '1.00' });
      const reader = await platform().newPartner({ name: 'Reader', scopes: ['hpp_session:read'] });
      const writer = await platform().newPartner({ name: 'Writer', scopes: ['hpp_session:write'] });
      expectProblem(await create({ merchant_id: plain, amount: '1.00' }, reader), 403, 'unauthorized');
      expectProblem(await reader.client.post(`/hpp/sessions/${created.id}/cancel`), 403, 'unauthorized');
      expectProblem(await writer.client.get(`/hpp/sessions/${created.id}`), 403, 'unauthorized');
      expectProblem(await platform().as(null).get(`/hpp/sessions/${created.id}`), 401, 'unauthorized');
    });
  });

  // Last: it moves the suite's sandbox clock forward.
  describe('expiry', () => {
    it('past expires_at a session reads EXPIRED at once; the sweeper records HppSessionExpired once', async () => {
      const { body: pending } = await create({ merchant_id: plain, amount: '3.00' });
      const { body: cancelled } = await create({ merchant_id: plain, amount: '3.00' });
      await client().post(`/hpp/sessions/${cancelled.id}/cancel`);

      const advanced = await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 1801 });
      expect(advanced.status).toBe(200);
      expect(Date.parse(advanced.body.now)).toBeGreaterThan(Date.parse(pending.expires_at));

      const read = await client().get(`/hpp/sessions/${pending.id}`);
      expect(read.body.state).toBe('EXPIRED');
      expectProblem(
        await client().post(`/hpp/sessions/${pending.id}/cancel`),
        409,
        'invalid_state_transition',
      );

      const expiry = platform().service.app.get(HppSessionExpiry);
      await expiry.sweep();
      const recorded = await events(pending.id);
      expect(recorded.map((e) => e.type)).toEqual(['HppSessionCreated', 'HppSessionExpired']);
      expect(recorded[1].metadata).toMatchObject({
        actor: 'system:hpp-expiry',
        partner_id: partner.id,
        causation_id: expiryMetadata(pending.id, partner.id).causation_id,
      });
      expect((await client().get(`/hpp/sessions/${pending.id}`)).body.state).toBe('EXPIRED');
      // A cancelled session stays cancelled.
      expect((await events(cancelled.id)).map((e) => e.type)).toEqual([
        'HppSessionCreated',
        'HppSessionCancelled',
      ]);

      // Nothing is left to expire, and a second sweeper's run of the same expiry appends nothing.
      expect(await expiry.sweep()).toBe(0);
      const again = await platform()
        .service.app.get(CommandBus)
        .execute(
          new RunHppSessionCommand(
            { type: 'ExpireHppSession', sessionId: pending.id },
            expiryMetadata(pending.id, partner.id),
          ),
        );
      expect(again).toMatchObject({ alreadyApplied: true });
      expect(await events(pending.id)).toHaveLength(2);

      // A session created now lives another 30 minutes of the advanced clock.
      const fresh = await create({ merchant_id: plain, amount: '3.00' });
      expect(fresh.body.state).toBe('PENDING');
      expect(Date.parse(fresh.body.created_at)).toBeGreaterThanOrEqual(Date.parse(advanced.body.now));
    });
  });
});
