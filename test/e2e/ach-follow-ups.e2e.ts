import { randomUUID } from 'node:crypto';
import { useTestPlatform, type TestPartner } from '../support/api';
import { activeMerchant, CHECKING, vaultedCredential } from '../support/payments';
import { expectProblem, expectValidationError } from '../support/problems';

/**
 * ACH after settlement, through HTTP only (CONTRACT §5a): ACH_REFUND, and ACH_REVERSAL within 5
 * banking days of settlement on the Federal Reserve calendar. Settlement is the operator's run;
 * time moves by the sandbox clock, so this file has a platform (and a clock) of its own.
 */
describe('ACH follow-ups after settlement: ACH_REFUND and ACH_REVERSAL', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let merchantId: string;
  let bankToken: string;

  const post = (body: Record<string, unknown>) =>
    partner.client.post('/transactions', { merchant_id: merchantId, ...body });
  const read = async (id: string) => (await partner.client.get(`/transactions/${id}`)).body;
  const reason = { code: 'duplicate_entry', description: 'the batch job sent it twice' };

  /** An ACH_DEBIT taken to SETTLED by the operator's settlement run (due the banking day after its submission). */
  async function settledDebit(amount = '80.00'): Promise<string> {
    const debit = await post({
      type: 'ACH_DEBIT',
      amount,
      currency: 'USD',
      vault_token: bankToken,
      use_type: 'ONE_TIME_FUTURE',
    });
    expect(debit.body).toMatchObject({ state: 'SUBMITTED', rail: 'ACH' });
    for (let day = 0; day < 5 && (await read(debit.body.id)).state !== 'SETTLED'; day++) {
      const run = await platform().operator.post('/platform/settlement/run', { merchant_id: merchantId });
      expect(run.status).toBe(200);
      if ((await read(debit.body.id)).state !== 'SETTLED') {
        // Due on the first banking day after its submission day (ACH clears in 1 to 3 banking days).
        await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 86_400 });
      }
    }
    expect(await read(debit.body.id)).toMatchObject({ state: 'SETTLED' });
    return debit.body.id;
  }

  beforeAll(async () => {
    partner = await platform().newPartner();
    await platform().operator.put(`/platform/partners/${partner.id}/feature-flags/ach_payments`, {
      enabled: true,
    });
    merchantId = await activeMerchant(platform().operator, partner, 'ACH Follow-ups Shop');
    bankToken = (await vaultedCredential(platform(), partner, merchantId, { instrument: CHECKING }))
      .vaultToken;
  });

  it('ACH_REFUND refunds a SETTLED debit in full: a new ACH_REFUND transaction, the parent REFUNDED', async () => {
    const parentId = await settledDebit('80.00');
    const refund = await post({ type: 'ACH_REFUND', parent_transaction_id: parentId });
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({
      type: 'ACH_REFUND',
      rail: 'ACH',
      parent_transaction_id: parentId,
      amount: '80.00',
      state: 'SUBMITTED',
    });
    expect(refund.body.id).not.toBe(parentId);
    expect(await read(parentId)).toMatchObject({ state: 'REFUNDED' });
    expectProblem(
      await post({ type: 'ACH_REFUND', parent_transaction_id: parentId }),
      409,
      'invalid_state_transition',
    );
  });

  it('ACH_REFUND before settlement is 409: a SUBMITTED entry is voided, not refunded', async () => {
    const debit = await post({
      type: 'ACH_DEBIT',
      amount: '12.00',
      currency: 'USD',
      vault_token: bankToken,
      use_type: 'ONE_TIME_FUTURE',
    });
    expectProblem(
      await post({ type: 'ACH_REFUND', parent_transaction_id: debit.body.id }),
      409,
      'invalid_state_transition',
    );
  });

  it('ACH_REVERSAL needs {code, description}; its form is checked (400) before the parent is looked up', async () => {
    const unknownParent = randomUUID();
    for (const [reversal_reason, field] of [
      [undefined, 'reversal_reason'],
      ['duplicate_entry', 'reversal_reason'],
      [{ code: 'duplicate_entry' }, 'reversal_reason.description'],
      [{ code: 'changed_my_mind', description: 'x' }, 'reversal_reason.code'],
      [{ code: 'wrong_date', description: '   ' }, 'reversal_reason.description'],
    ] as const) {
      expectValidationError(
        await post({ type: 'ACH_REVERSAL', parent_transaction_id: unknownParent, reversal_reason }),
        [field],
      );
    }
    expectValidationError(
      await post({
        type: 'PARTIAL_REFUND',
        parent_transaction_id: unknownParent,
        amount: '1.00',
        refund_reason: 5,
      }),
      ['refund_reason'],
    );
    expectProblem(
      await post({ type: 'ACH_REVERSAL', parent_transaction_id: unknownParent, reversal_reason: reason }),
      404,
      'transaction_not_found',
    );
  });

  it('ACH_REVERSAL within 5 banking days of settlement reverses the entry and records its reason', async () => {
    const parentId = await settledDebit('45.00');
    const reversal = await post({
      type: 'ACH_REVERSAL',
      parent_transaction_id: parentId,
      reversal_reason: { code: 'wrong_amount', description: '  keyed 45.00 for 4.50  ' },
    });
    expect(reversal.status).toBe(200);
    expect(reversal.body).toMatchObject({
      type: 'ACH_REVERSAL',
      parent_transaction_id: parentId,
      amount: '45.00',
      state: 'SUBMITTED',
    });
    expect(await read(parentId)).toMatchObject({ state: 'REVERSED', refundable_amount: '0.00' });
    const events = (await platform().operator.get(`/platform/streams/transaction-${reversal.body.id}/events`))
      .body.data;
    expect(events[0]).toMatchObject({
      type: 'TransactionInitiated',
      data: { reversalReason: { code: 'wrong_amount', description: 'keyed 45.00 for 4.50' } },
    });
  });

  it('ACH_REVERSAL after the window is 422 nacha_reversal_window_expired and changes nothing', async () => {
    const parentId = await settledDebit('30.00');
    // Ten calendar days hold at least six banking days, whatever the weekday and holidays.
    await platform().operator.post('/platform/sandbox/clock', { advance_seconds: 10 * 86_400 });
    expectProblem(
      await post({ type: 'ACH_REVERSAL', parent_transaction_id: parentId, reversal_reason: reason }),
      422,
      'nacha_reversal_window_expired',
    );
    expect(await read(parentId)).toMatchObject({ state: 'SETTLED' });
  });

  it('a declined debit tells the payer about their bank account, not a card', async () => {
    const declined = await post({
      type: 'ACH_DEBIT',
      amount: '10.05',
      currency: 'USD',
      vault_token: bankToken,
      use_type: 'ONE_TIME_FUTURE',
    });
    expect(declined.body).toMatchObject({
      state: 'FAILED',
      decline_code: 'insufficient_funds',
      decline_reason: 'The bank account has insufficient funds.',
    });
  });

  it('custom_fields of the wrong form is a malformed body (400), not a rule broken (422)', async () => {
    const base = {
      type: 'ACH_DEBIT',
      amount: '5.00',
      currency: 'USD',
      vault_token: bankToken,
      use_type: 'ONE_TIME_FUTURE',
    };
    expectValidationError(await post({ ...base, custom_fields: { invoice: 'INV-1' } }), ['custom_fields']);
    expectValidationError(
      await post({
        ...base,
        custom_fields: Array.from({ length: 501 }, (_, i) => ({ name: `f${i}`, value: 'v' })),
      }),
      ['custom_fields'],
    );
    expectValidationError(await post({ ...base, custom_fields: [{ name: 'invoice', value: 7 }] }), [
      'custom_fields[0].value',
    ]);
  });
});
