/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { PaymentGateway } from '../../libs/gateway/src/gateway';
import type { SandboxGateway } from '../../libs/gateway/src/sandbox/sandbox-gateway';
import { useTestPlatform, type TestPartner } from '../support/api';
import { testMetadata } from '../support/metadata';
import {
  activeMerchant,
  CHECKING,
  vaultedCredential,
  VISA_DEBIT,
  transactionStreams,
} from '../support/payments';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

const RESOURCE_FIELDS = [
  'id',
  'transaction_id',
  'merchant_id',
  'type',
  'state',
  'amount',
  'currency',
  'entry_mode',
  'surcharge_amount',
  'surcharge_reversed_amount',
  'convenience_fee_amount',
  'convenience_fee_disclosure_acknowledged_at',
  'convenience_fee_disclosure_channel',
  'surcharge_disclosure_acknowledged_at',
  'surcharge_disclosure_channel',
  'tax_amount',
  'decline_code',
  'avs_response_code',
  'cv_response_code',
  'three_ds',
  'three_ds_failure_reason',
  'custom_fields',
  'level2_data',
  'level3_data',
  'created_at',
  'customer_id',
];

describe('POST /transactions: card and ACH on one endpoint', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  let token: string;

  const sale = (overrides: Record<string, unknown> = {}, key?: string) =>
    partner.client.post(
      '/transactions',
      {
        type: 'SALE',
        merchant_id: merchantId,
        amount: '25.00',
        currency: 'USD',
        vault_token: token,
        use_type: 'ONE_TIME_FUTURE',
        ...overrides,
      },
      key ? { idempotencyKey: key } : undefined,
    );
  const settle = async (transactionId: string) => {
    await transactionStreams(platform().service.app).execute(
      { type: 'Settle', transactionId, batchId: randomUUID() },
      testMetadata({ partner_id: partner.id }),
    );
  };
  const followUp = (type: string, parent: string, extra: Record<string, unknown> = {}) =>
    partner.client.post('/transactions', {
      type,
      merchant_id: merchantId,
      parent_transaction_id: parent,
      ...extra,
    });

  beforeAll(async () => {
    partner = await platform().newPartner();
    // ACH and Level 2/3 data are off for a new partner (docs/feature-flags.md).
    for (const flag of ['ach_payments', 'level2_level3_data']) {
      expect((await partner.client.put(`/config/feature-flags/me/${flag}`, { enabled: true })).status).toBe(
        200,
      );
    }
    merchantId = await activeMerchant(platform().operator, partner);
    token = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
  });

  it('an approved card SALE answers 200 CAPTURED with every field of the spec’s Transaction', async () => {
    const res = await sale();
    expect(res.status).toBe(200);
    for (const field of RESOURCE_FIELDS) expect(res.body).toHaveProperty(field);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(UUID),
      merchant_id: merchantId,
      type: 'SALE',
      state: 'CAPTURED',
      amount: '25.00',
      currency: 'USD',
      decline_code: null,
      card: { brand: expect.any(String), last4: '1111' },
      created_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(res.body.transaction_id).toBe(res.body.id);
    const read = await partner.client.get(`/transactions/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it.each([
    ['25.05', 'insufficient_funds'],
    ['25.51', 'card_declined'],
    ['25.54', 'expired_card'],
  ])('%s is declined: 200 FAILED with decline_code %s', async (amount, code) => {
    const res = await sale({ amount });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ state: 'FAILED', decline_code: code });
  });

  it('.91: 502 gateway_outcome_unknown, recorded pending; the same key resolves it and charges once', async () => {
    const gateway = platform().service.app.get(PaymentGateway) as SandboxGateway;
    const before = gateway.effects().captures;
    const key = randomUUID();
    const first = await sale({ amount: '40.91' }, key);
    expectProblem(first, 502, 'gateway_outcome_unknown');
    expect(first.body.retryable).toBe(true);
    const retry = await sale({ amount: '40.91' }, key);
    expect(retry.status).toBe(200);
    expect(retry.body.state).toBe('CAPTURED');
    const replay = await sale({ amount: '40.91' }, key);
    expect(replay.headers.get('x-idempotent-replay')).toBe('true');
    expect(replay.body).toEqual(retry.body);
    expect(gateway.effects().captures - before).toBe(1);
    const stream = await platform().operator.get(`/platform/streams/transaction-${retry.body.id}/events`);
    expect(stream.body.data.map((e: any) => e.type)).toEqual([
      'TransactionInitiated',
      'TransactionOutcomeUnknown',
      'TransactionApproved',
    ]);
  });

  it('a second request with the same key while the first is in flight at the gateway is 409 idempotency_key_in_progress', async () => {
    const gateway = platform().service.app.get(PaymentGateway) as SandboxGateway;
    const original = gateway.authorizeAndCapture.bind(gateway);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = jest.spyOn(gateway, 'authorizeAndCapture').mockImplementation(async (request) => {
      await held;
      return original(request);
    });
    try {
      const key = randomUUID();
      const first = sale({}, key);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await sale({}, key);
      // CONTRACT §7: a twin still being processed is 409, as on every write; 502 is only for a
      // gateway answer that never came. Retry-After is about a heartbeat, not the old 30 s lease.
      expectProblem(second, 409, 'idempotency_key_in_progress');
      expect(second.body.retryable).toBe(true);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(second.headers.get('retry-after'))).toBeLessThanOrEqual(2);
      release();
      const answered = await first;
      expect(answered.status).toBe(200);
      const again = await sale({}, key);
      expect(again.headers.get('x-idempotent-replay')).toBe('true');
      expect(again.body).toEqual(answered.body);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('use_type outside the credential’s scope is 422 stored_credential_scope_violation', async () => {
    const narrow = await vaultedCredential(platform(), partner, merchantId, { scope: ['RECURRING'] });
    expectProblem(
      await sale({ vault_token: narrow.vaultToken, use_type: 'ONE_TIME_FUTURE' }),
      422,
      'stored_credential_scope_violation',
    );
    const ok = await sale({ vault_token: narrow.vaultToken, use_type: 'RECURRING' });
    expect(ok.body.state).toBe('CAPTURED');
  });

  it('a revoked credential cannot be charged (422 stored_credential_not_chargeable, retryable false)', async () => {
    const credential = await vaultedCredential(platform(), partner, merchantId);
    const revoked = await partner.client.delete(
      `/merchants/${merchantId}/stored-credentials/${credential.id}`,
    );
    expect(revoked.status).toBe(204);
    const res = await sale({ vault_token: credential.vaultToken });
    expectProblem(res, 422, 'stored_credential_not_chargeable');
    expect(res.body.retryable).toBe(false);
  });

  it('refuses bad requests before anything is written', async () => {
    expectValidationError(await sale({ amount: 25 }), ['amount']);
    expectValidationError(await sale({ amount: '0.00' }), ['amount']);
    // "2500" reads exactly like integer cents: the spec wants a decimal string with a point.
    const cents = await sale({ amount: '2500' });
    expectValidationError(cents, ['amount']);
    expect(cents.body.errors[0].message).toContain('never integer cents');
    expectValidationError(await sale({ colour: 'red' }), ['colour']);
    expectValidationError(await sale({ use_type: 'SOMETIMES' }), ['use_type']);
    expectValidationError(await sale({ type: 'TELEPORT' }), ['type']);
    expectProblem(await sale({ merchant_id: randomUUID() }), 404, 'merchant_not_found');
    expectProblem(await sale({ vault_token: `cvt_${'A'.repeat(32)}` }), 404, 'stored_credential_not_found');
    expectProblem(await sale({ type: 'AUTHORIZATION' }), 501, 'not_implemented');
    expectProblem(await sale({ type: 'CARD_VERIFICATION' }), 501, 'not_implemented');
    expectProblem(
      await partner.client.post('/transactions', { type: 'ACH_RETURN', merchant_id: merchantId }),
      422,
      'transaction_type_not_allowed',
    );
    const other = await platform().newPartner();
    expectProblem(
      await other.client.post('/transactions', {
        type: 'SALE',
        merchant_id: merchantId,
        amount: '1.00',
        currency: 'USD',
        vault_token: token,
        use_type: 'ONE_TIME_FUTURE',
      }),
      404,
      'merchant_not_found',
    );
  });

  it('custom fields are checked against the merchant’s configuration; level 2/3 data against its rules', async () => {
    const configured = await partner.client.put(`/config/custom-fields/merchants/${merchantId}`, {
      fields: [{ name: 'invoice_ref', isRequired: true, maxLength: 20, regEx: '^INV-[0-9]+$' }],
    });
    expect(configured.status).toBe(200);
    try {
      const missing = await sale();
      expectProblem(missing, 422, 'custom_fields_invalid');
      const wrong = await sale({ custom_fields: [{ name: 'invoice_ref', value: 'nope' }] });
      expectProblem(wrong, 422, 'custom_fields_invalid');
      expect(wrong.body.errors[0].field).toMatch(/^custom_fields\[0\]/);
      const ok = await sale({
        custom_fields: [{ name: 'invoice_ref', value: 'INV-42' }],
        level2_data: { po_number: 'PO-7', merchant_zip: '94107' },
        level3_data: {
          invoice_number: 'INV-42',
          line_items: [
            { description: 'Croissant', quantity: '2', unit_price: '3.50', total_amount: '7.00' },
            { description: 'Coffee', quantity: '1.5', unit_price: '4.00', total_amount: '6.00' },
          ],
        },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        state: 'CAPTURED',
        custom_fields: [{ name: 'invoice_ref', value: 'INV-42' }],
        level2_data: { po_number: 'PO-7', merchant_zip: '94107' },
        level3_data: {
          line_items: [expect.objectContaining({ extended_amount: '7.00' }), expect.anything()],
        },
      });
      const badArithmetic = await sale({
        custom_fields: [{ name: 'invoice_ref', value: 'INV-43' }],
        level3_data: {
          line_items: [{ description: 'Croissant', quantity: '2', unit_price: '3.50', total_amount: '7.01' }],
        },
      });
      expectValidationError(badArithmetic, ['level3_data.line_items[0].total_amount']);
      const tooMuch = await sale({
        amount: '5.00',
        custom_fields: [{ name: 'invoice_ref', value: 'INV-44' }],
        level3_data: {
          line_items: [{ description: 'Croissant', quantity: '2', unit_price: '3.50', total_amount: '7.00' }],
        },
      });
      expectValidationError(tooMuch, ['level3_data.line_items']);
    } finally {
      await partner.client.delete(`/config/custom-fields/merchants/${merchantId}`);
    }
  });

  it('a merchant that is not ACTIVE or LIVE is 422 merchant_not_transactable', async () => {
    const draft = await partner.client.post('/merchants', {
      business_name: 'Draft Shop',
      contact_email: 'd@shop.test',
      contact_name: 'D',
      merchant_category_code: '5812',
    });
    expectProblem(await sale({ merchant_id: draft.body.id }), 422, 'merchant_not_transactable');
  });

  it('VOID before settlement; a refund before settlement is 409', async () => {
    const { body: parent } = await sale();
    expectProblem(await followUp('REFUND', parent.id), 409, 'invalid_state_transition');
    expectProblem(await followUp('AUTH_REVERSAL', parent.id), 409, 'invalid_state_transition');
    const voided = await followUp('VOID', parent.id);
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ type: 'VOID', state: 'VOIDED', parent_transaction_id: parent.id });
    const after = (await partner.client.get(`/transactions/${parent.id}`)).body;
    // Nothing of a voided transaction can be refunded, nor of the VOID itself.
    expect(after).toMatchObject({ state: 'VOIDED', refundable_amount: '0.00' });
    expect(voided.body.refundable_amount).toBe('0.00');
    expectProblem(await followUp('VOID', parent.id), 409, 'invalid_state_transition');
  });

  it('refundable_amount: the amount while a refund can still come (captured, settled), 0.00 once reversed or returned', async () => {
    const { body: captured } = await sale({ amount: '12.00' });
    expect(captured).toMatchObject({ state: 'CAPTURED', refundable_amount: '12.00' });
    await settle(captured.id);
    expect((await partner.client.get(`/transactions/${captured.id}`)).body.refundable_amount).toBe('12.00');
    const { body: declined } = await sale({ amount: '12.05' });
    expect(declined).toMatchObject({ state: 'FAILED', refundable_amount: '0.00' });
  });

  it('ten racing partial refunds never exceed the original', async () => {
    const { body: parent } = await sale({ amount: '100.00' });
    await settle(parent.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        followUp('PARTIAL_REFUND', parent.id, { amount: '15.00', refund_reason: 'customer_requested' }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok.length).toBe(6); // 6 × 15.00 = 90.00; a 7th would be 105.00
    for (const r of refused) expect([422, 409]).toContain(r.status);
    const after = await partner.client.get(`/transactions/${parent.id}`);
    expect(after.body).toMatchObject({
      state: 'PARTIALLY_REFUNDED',
      refunded_amount: '90.00',
      refundable_amount: '10.00',
    });
    expectProblem(
      await followUp('PARTIAL_REFUND', parent.id, { amount: '10.01' }),
      422,
      'amount_exceeds_refundable',
    );
    const rest = await followUp('REFUND', parent.id);
    expect(rest.body).toMatchObject({ type: 'REFUND', amount: '10.00', state: 'CAPTURED' });
    expect((await partner.client.get(`/transactions/${parent.id}`)).body.state).toBe('REFUNDED');
  });

  it('ONE_TIME_FUTURE never surcharges a debit card; merchant-initiated is billed as given', async () => {
    const debit = await vaultedCredential(platform(), partner, merchantId, { instrument: VISA_DEBIT });
    const res = await sale({ vault_token: debit.vaultToken });
    expect(res.body).toMatchObject({
      state: 'CAPTURED',
      surcharge_amount: '0.00',
      convenience_fee_amount: '0.00',
    });
  });

  it('ACH_DEBIT is SUBMITTED; ACH_VOID voids it; a card token on ACH_DEBIT is refused', async () => {
    const bank = await vaultedCredential(platform(), partner, merchantId, { instrument: CHECKING });
    const debit = await partner.client.post('/transactions', {
      type: 'ACH_DEBIT',
      merchant_id: merchantId,
      amount: '50.00',
      currency: 'USD',
      vault_token: bank.vaultToken,
      use_type: 'ONE_TIME_FUTURE',
      sec_code: 'WEB',
    });
    expect(debit.status).toBe(200);
    expect(debit.body).toMatchObject({
      type: 'ACH_DEBIT',
      rail: 'ACH',
      state: 'SUBMITTED',
      bank: { account_type: 'CHECKING', account_last4: '6789', routing_last4: '0015' },
    });
    const voided = await followUp('ACH_VOID', debit.body.id);
    expect(voided.body).toMatchObject({ type: 'ACH_VOID', state: 'VOIDED' });
    expectProblem(await sale({ vault_token: bank.vaultToken }), 422, 'payment_method_mismatch');
  });
});
