/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { activeMerchant, CHECKING, vaultedCredential } from '../support/payments';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

/**
 * `/contracts` over HTTP on the real app (spec "Recurring contracts", CONTRACT §8,
 * docs/recurring.md): create on a stored payment method and every rule of its body, the resource
 * and the list item, reads, tenancy, PATCH, pause, resume and cancel.
 */
describe('recurring contracts over HTTP', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  let card: string;
  let today: string;
  /** Contracts here start tomorrow: nothing falls due while the suite runs (the scheduler ticks). */
  let tomorrow: string;

  const body = (extra: Record<string, unknown> = {}) => ({
    merchant_id: merchantId,
    payment_method_type: 'CARD',
    payment_method_token: card,
    amount: '19.99',
    frequency: 'MONTHLY',
    start_date: tomorrow,
    ...extra,
  });
  const create = (extra: Record<string, unknown> = {}, as = partner) =>
    as.client.post('/contracts', body(extra));
  const dayAfter = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    partner = await platform().newPartner();
    merchantId = await activeMerchant(platform().operator, partner, 'Corner Bakery');
    card = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
    today = ((await platform().operator.get('/platform/sandbox/clock')).body.now as string).slice(0, 10);
    tomorrow = dayAfter(today, 1);
  });

  describe('POST /contracts', () => {
    it('creates an ACTIVE contract on a card token; every field of the resource is filled', async () => {
      const res = await create({
        end_date: dayAfter(today, 400),
        interval: 2,
        max_retries: 5,
        number_of_payments: 4,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(UUID),
        partner_id: partner.id,
        merchant_id: merchantId,
        customer_id: null,
        state: 'ACTIVE',
        payment_method_type: 'CARD',
        payment_method_token: card,
        card: { brand: 'VISA', last4: '1111', exp_month: 12, exp_year: 2030 },
        bank: null,
        use_type: 'RECURRING',
        amount: '19.99',
        currency: 'USD',
        frequency: 'MONTHLY',
        interval: 2,
        number_of_payments: 4,
        start_date: tomorrow,
        end_date: dayAfter(today, 400),
        total_amount: '79.96',
        remaining_installments: 4,
        amount_paid: '0.00',
        last_successful_charge_date: null,
        next_charge_date: tomorrow,
        retry_count: 0,
        max_retries: 5,
        state_reason: null,
        hpp_session_id: null,
        custom_fields: [],
        level2_data: null,
        level3_data: null,
        created_at: expect.stringMatching(ISO_TIMESTAMP),
        updated_at: expect.stringMatching(ISO_TIMESTAMP),
        version: 1,
      });
      // A replay answers the same contract; the read answers it too.
      expect((await partner.client.get(`/contracts/${res.body.id}`)).body).toEqual(res.body);
    });

    it('an Idempotency-Key replay creates nothing new', async () => {
      const first = await create({}, partner);
      const key = randomUUID();
      const a = await partner.client.post('/contracts', body(), { idempotencyKey: key });
      const b = await partner.client.post('/contracts', body(), { idempotencyKey: key });
      expect(b.headers.get('x-idempotent-replay')).toBe('true');
      expect(b.body.id).toBe(a.body.id);
      expect(a.body.id).not.toBe(first.body.id);
    });

    it('recurring: keys are the platform’s: 400 idempotency_key_reserved', async () => {
      const res = await partner.client.post('/contracts', body(), {
        idempotencyKey: `recurring:${randomUUID()}:1`,
      });
      expectProblem(res, 400, 'idempotency_key_reserved');
    });

    it('on an ACH token (with ach_payments)', async () => {
      expect(
        (await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true })).status,
      ).toBe(200);
      const bank = await vaultedCredential(platform(), partner, merchantId, { instrument: CHECKING });
      const res = await create({ payment_method_type: 'ACH', payment_method_token: bank.vaultToken });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        payment_method_type: 'ACH',
        card: null,
        bank: { account_type: 'CHECKING', account_last4: '6789', routing_last4: '0015' },
      });
      // The token's rail decides: a card contract on a bank account is refused.
      expectProblem(await create({ payment_method_token: bank.vaultToken }), 422, 'payment_method_mismatch', {
        errors: [{ field: 'payment_method_type', message: expect.any(String) }],
      });
    });

    it('validation names the field for each bad input', async () => {
      const bad = async (extra: Record<string, unknown>, fields: string[]) =>
        expectValidationError(await create(extra), fields);
      await bad({ start_date: dayAfter(today, -1) }, ['start_date']);
      await bad({ end_date: dayAfter(today, -1) }, ['end_date']);
      await bad({ start_date: dayAfter(today, 10), end_date: dayAfter(today, 9) }, ['end_date']);
      await bad({ frequency: 'FORTNIGHTLY' }, ['frequency']);
      await bad({ frequency: 'monthly' }, ['frequency']);
      await bad({ amount: 19.99 }, ['amount']);
      await bad({ amount: '1999' }, ['amount']);
      await bad({ amount: '19.999' }, ['amount']);
      await bad({ amount: '0.00' }, ['amount']);
      await bad({ amount: '1000000.00' }, ['amount']);
      await bad({ start_date: '2026-02-30' }, ['start_date']);
      await bad({ start_date: '01/02/2027' }, ['start_date']);
      await bad({ interval: 0 }, ['interval']);
      await bad({ number_of_payments: 0 }, ['number_of_payments']);
      await bad({ max_retries: 11 }, ['max_retries']);
      await bad({ payment_method_type: 'card' }, ['payment_method_type']);
      await bad({ payment_method_token: '4111111111111111' }, ['payment_method_token']);
      await bad({ merchant_id: 'm1' }, ['merchant_id']);
      await bad({ currency: 'EUR' }, ['currency']);
      await bad({ plan: 'gold' }, ['plan']);
      await bad({ custom_fields: 'x' }, ['custom_fields']);
      await bad({ level2_data: 'x' }, ['level2_data']);
      // Every problem of the body in one answer.
      await bad({ amount: 5, frequency: 'HOURLY', start_date: 'soon' }, [
        'amount',
        'frequency',
        'start_date',
      ]);
      const missing = await partner.client.post('/contracts', {});
      expectValidationError(missing, [
        'merchant_id',
        'payment_method_type',
        'payment_method_token',
        'amount',
        'frequency',
        'start_date',
      ]);
    });

    it('a token scoped for other uses is 422 stored_credential_scope_violation', async () => {
      const oneOff = await vaultedCredential(platform(), partner, merchantId, { scope: ['ONE_TIME_FUTURE'] });
      expectProblem(
        await create({ payment_method_token: oneOff.vaultToken }),
        422,
        'stored_credential_scope_violation',
      );
    });

    it('a token scoped for INSTALLMENT carries installment plans only (with the installments flag)', async () => {
      const plan = await vaultedCredential(platform(), partner, merchantId, { scope: ['INSTALLMENT'] });
      // Open-ended: not an installment plan.
      expectProblem(
        await create({ payment_method_token: plan.vaultToken }),
        422,
        'stored_credential_scope_violation',
      );
      expectProblem(
        await create({ payment_method_token: plan.vaultToken, number_of_payments: 6 }),
        403,
        'feature_not_enabled',
      );
      expect(
        (await partner.client.put('/config/feature-flags/me/installments', { enabled: true })).status,
      ).toBe(200);
      const res = await create({ payment_method_token: plan.vaultToken, number_of_payments: 6 });
      expect(res.body).toMatchObject({ state: 'ACTIVE', use_type: 'INSTALLMENT', remaining_installments: 6 });
    });

    it('a revoked token is 422 stored_credential_not_chargeable', async () => {
      const revoked = await vaultedCredential(platform(), partner, merchantId);
      expect(
        (await partner.client.delete(`/merchants/${merchantId}/stored-credentials/${revoked.id}`)).status,
      ).toBe(204);
      expectProblem(
        await create({ payment_method_token: revoked.vaultToken }),
        422,
        'stored_credential_not_chargeable',
        { retryable: false },
      );
    });

    it("another partner's token, or another merchant's, reads as unknown: 404", async () => {
      const other = await platform().newPartner({ name: 'Other Software' });
      const otherMerchant = await activeMerchant(platform().operator, other, 'Other Shop');
      const theirs = await vaultedCredential(platform(), other, otherMerchant);
      expectProblem(
        await create({ payment_method_token: theirs.vaultToken }),
        404,
        'stored_credential_not_found',
      );
      expectProblem(
        await create({ payment_method_token: `cvt_${'x'.repeat(32)}` }),
        404,
        'stored_credential_not_found',
      );
      const sibling = await activeMerchant(platform().operator, partner, 'Sister Shop');
      const siblingCard = await vaultedCredential(platform(), partner, sibling);
      expectProblem(
        await create({ payment_method_token: siblingCard.vaultToken }),
        404,
        'stored_credential_not_found',
      );
      // Their merchant is not ours either.
      expectProblem(await create({ merchant_id: otherMerchant }), 404, 'merchant_not_found');
    });

    it('a merchant that may not transact is 422 merchant_not_transactable', async () => {
      const suspended = await activeMerchant(platform().operator, partner, 'Paused Shop');
      const token = (await vaultedCredential(platform(), partner, suspended)).vaultToken;
      await platform().operator.post(`/platform/merchants/${suspended}/transitions`, {
        action: 'suspend',
        reason: 'risk',
      });
      expectProblem(
        await create({ merchant_id: suspended, payment_method_token: token }),
        422,
        'merchant_not_transactable',
      );
    });

    it('needs contract:write; reads need contract:read', async () => {
      const reader = await platform().newPartner({ scopes: ['contract:read'] });
      expectProblem(await reader.client.post('/contracts', body()), 403, 'unauthorized');
      expect((await reader.client.get('/contracts')).status).toBe(200);
      const writer = await platform().newPartner({ scopes: ['contract:write'] });
      expectProblem(await writer.client.get('/contracts'), 403, 'unauthorized');
    });
  });

  describe('GET /contracts and /contracts/{id}', () => {
    it('lists items newest first with the spec fields; amount_per_period is a number', async () => {
      const a = (await create({ amount: '10.50', frequency: 'WEEKLY', number_of_payments: 3 })).body;
      const b = (await create({ amount: '7.25', frequency: 'DAILY' })).body;
      const page = await partner.client.get(`/contracts?merchant_id=${merchantId}&page_size=2`);
      expect(page.status).toBe(200);
      expect(page.body.data[0]).toEqual({
        id: b.id,
        merchant_id: merchantId,
        merchant_name: 'Corner Bakery',
        rail: 'CARD',
        card_last4: '1111',
        amount_per_period: 7.25,
        currency: 'USD',
        period_unit: 'DAILY',
        total_periods: null,
        periods_completed: 0,
        state: 'ACTIVE',
        next_charge_date: tomorrow,
      });
      expect(page.body.data[1]).toMatchObject({ id: a.id, amount_per_period: 10.5, total_periods: 3 });
      expect(page.body.pagination).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
      const next = await partner.client.get(
        `/contracts?merchant_id=${merchantId}&page_size=2&cursor=${page.body.pagination.next_cursor}`,
      );
      expect(next.body.data.map((c: any) => c.id)).not.toContain(b.id);
      expect(next.body.pagination.total_count).toBe(page.body.pagination.total_count);
    });

    it('filters by state; refuses unknown, blank or malformed parameters', async () => {
      const cancelled = (await create()).body;
      await partner.client.post(`/contracts/${cancelled.id}/cancel`);
      const list = await partner.client.get('/contracts?state=CANCELLED');
      expect(list.body.data.map((c: any) => c.id)).toContain(cancelled.id);
      expect(list.body.data.every((c: any) => c.state === 'CANCELLED')).toBe(true);
      expectValidationError(await partner.client.get('/contracts?state=LIVE'), ['state']);
      expectValidationError(await partner.client.get('/contracts?status=ACTIVE'), ['status']);
      expectValidationError(await partner.client.get('/contracts?merchant_id='), ['merchant_id']);
      expectValidationError(await partner.client.get('/contracts?page_size=101'), ['page_size']);
      expectProblem(
        await partner.client.get(`/contracts?merchant_id=${randomUUID()}`),
        404,
        'merchant_not_found',
      );
    });

    it("another partner's contract is 404 contract_not_found, on every route", async () => {
      const mine = (await create()).body;
      const other = await platform().newPartner({ name: 'Nosy Software' });
      for (const res of [
        await other.client.get(`/contracts/${mine.id}`),
        await other.client.patch(`/contracts/${mine.id}`, { end_date: dayAfter(today, 30) }),
        await other.client.post(`/contracts/${mine.id}/pause`),
        await other.client.post(`/contracts/${mine.id}/cancel`),
      ]) {
        expectProblem(res, 404, 'contract_not_found');
      }
      expect((await other.client.get('/contracts')).body.data).toEqual([]);
      expectValidationError(await partner.client.get('/contracts/not-a-uuid'), ['contractId']);
    });
  });

  describe('PATCH /contracts/{id}', () => {
    it('changes next_charge_date and end_date, with a reason in the history', async () => {
      const c = (await create()).body;
      const res = await partner.client.patch(`/contracts/${c.id}`, {
        next_charge_date: dayAfter(today, 10),
        end_date: dayAfter(today, 100),
        reason: 'customer asked for the 10th',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        next_charge_date: dayAfter(today, 10),
        end_date: dayAfter(today, 100),
      });
      const stream = await platform().operator.get(`/platform/streams/contract-${c.id}/events`);
      expect(stream.body.data[1]).toMatchObject({
        type: 'ContractUpdated',
        data: { reason: 'customer asked for the 10th' },
        metadata: { actor: expect.stringMatching(/^partner-key:/) },
      });
      // end_date: null makes it open-ended again.
      const open = await partner.client.patch(`/contracts/${c.id}`, { end_date: null });
      expect(open.body).toMatchObject({ end_date: null, remaining_installments: null, total_amount: null });
    });

    it('amount, frequency or max_retries is 422 recurring_update_not_supported naming them', async () => {
      const c = (await create()).body;
      for (const [change, fields] of [
        [{ amount: '5.00' }, ['amount']],
        [{ frequency: 'WEEKLY', end_date: dayAfter(today, 5) }, ['frequency']],
        [{ max_retries: 1, amount: '5.00' }, ['amount', 'max_retries']],
      ] as const) {
        const res = await partner.client.patch(`/contracts/${c.id}`, change);
        expectProblem(res, 422, 'recurring_update_not_supported');
        expect(res.body.errors.map((e: any) => e.field).sort()).toEqual([...fields].sort());
      }
      expect((await partner.client.get(`/contracts/${c.id}`)).body.version).toBe(1);
    });

    it('other fields, past dates, dates against the contract, and an empty change are 400', async () => {
      const c = (await create({ start_date: dayAfter(today, 5) })).body;
      const bad = async (change: Record<string, unknown>, fields: string[]) =>
        expectValidationError(await partner.client.patch(`/contracts/${c.id}`, change), fields);
      await bad({ state: 'PAUSED' }, ['state']);
      await bad({ next_charge_date: dayAfter(today, -1) }, ['next_charge_date']);
      await bad({ next_charge_date: null }, ['next_charge_date']);
      await bad({ end_date: dayAfter(today, 3) }, ['end_date']); // before start_date
      await bad({ next_charge_date: dayAfter(today, 2) }, ['next_charge_date']); // before start_date
      await bad({ reason: 'only a reason' }, ['body']);
      await bad({}, ['body']);
      await bad({ end_date: dayAfter(today, 20), next_charge_date: dayAfter(today, 30) }, [
        'next_charge_date',
      ]);
    });
  });

  describe('pause, resume, cancel (CONTRACT §8)', () => {
    it('ACTIVE → PAUSED → ACTIVE → CANCELLED, each with its reason; forbidden moves are 409', async () => {
      const c = (await create()).body;
      const pause = await partner.client.post(`/contracts/${c.id}/pause`, { reason: 'card holder away' });
      expect(pause.status).toBe(200);
      expect(pause.body).toMatchObject({
        state: 'PAUSED',
        state_reason: {
          by: 'partner',
          code: null,
          reason: 'card holder away',
          at: expect.stringMatching(ISO_TIMESTAMP),
        },
      });
      expectProblem(await partner.client.post(`/contracts/${c.id}/pause`), 409, 'invalid_state_transition');
      const resume = await partner.client.post(`/contracts/${c.id}/resume`);
      expect(resume.body).toMatchObject({ state: 'ACTIVE', state_reason: null });
      expectProblem(await partner.client.post(`/contracts/${c.id}/resume`), 409, 'invalid_state_transition');
      const cancel = await partner.client.post(`/contracts/${c.id}/cancel`, { reason: 'moved away' });
      expect(cancel.body).toMatchObject({
        state: 'CANCELLED',
        state_reason: { by: 'partner', reason: 'moved away' },
        next_charge_date: null,
        remaining_installments: 0,
      });
      for (const action of ['pause', 'resume', 'cancel']) {
        expectProblem(
          await partner.client.post(`/contracts/${c.id}/${action}`),
          409,
          'invalid_state_transition',
        );
      }
      expectProblem(
        await partner.client.patch(`/contracts/${c.id}`, { end_date: dayAfter(today, 9) }),
        409,
        'invalid_state_transition',
      );
    });

    it('a PATCH while PAUSED is allowed', async () => {
      const c = (await create()).body;
      await partner.client.post(`/contracts/${c.id}/pause`);
      const res = await partner.client.patch(`/contracts/${c.id}`, { end_date: dayAfter(today, 60) });
      expect(res.body).toMatchObject({ state: 'PAUSED', end_date: dayAfter(today, 60) });
    });

    it('the reason is checked: unknown fields, long or control-character reasons are 400', async () => {
      const c = (await create()).body;
      expectValidationError(await partner.client.post(`/contracts/${c.id}/pause`, { why: 'x' }), ['why']);
      expectValidationError(
        await partner.client.post(`/contracts/${c.id}/pause`, { reason: 'x'.repeat(501) }),
        ['reason'],
      );
      expectValidationError(await partner.client.post(`/contracts/${c.id}/cancel`, { reason: 'a\u202eb' }), [
        'reason',
      ]);
      expect((await partner.client.get(`/contracts/${c.id}`)).body.state).toBe('ACTIVE');
    });
  });
});
