/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { expectedByOf, settlementDateOf } from '../../libs/settlement/src/domain/settlement-rules';
import { addBankingDays, isBankingDay } from '../../libs/transactions/src/domain/rules/banking-calendar';
import { idFor } from '../../libs/platform/src/http/request-metadata';
import { ProjectionRunner } from '../../libs/projections/src';
import { SettlementRun } from '../../libs/settlement/src/application/settlement-run';
import { testMetadata } from '../support/metadata';
import { useTestPlatform, type ApiClient, type TestPartner } from '../support/api';
import { activeMerchant, CHECKING, vaultedCredential, transactionStreams } from '../support/payments';
import { expectProblem, expectValidationError, ISO_TIMESTAMP, UUID } from '../support/problems';

/** Every field of the spec's Settlement batch. */
const BATCH_FIELDS = [
  'id',
  'merchant_id',
  'state',
  'reporting_basis',
  'processing_account',
  'vendor_status',
  'gateway_batch_id',
  'processor_batch_id',
  'closed_settlement_batch_id',
  'vendor_settlement_batch_id',
  'transaction_count',
  'total_amount',
  'fees',
  'net_amount',
  'expected_settled_count',
  'observed_member_count',
  'observed_member_amount',
  'run_date_utc',
  'completed_at_utc',
  'trigger_type',
  'settlement_date',
  'expected_by',
  'held_reason',
  'reconciled_at',
  'created_at',
];

/**
 * Moves the sandbox clock to noon UTC of a banking day unless it is already early enough on one,
 * so the whole suite runs inside one banking day (the run's settlement date is its UTC date).
 */
async function onABankingDay(operator: ApiClient): Promise<void> {
  const clock = await operator.get('/platform/sandbox/clock');
  const now = new Date(clock.body.now);
  const today = now.toISOString().slice(0, 10);
  if (isBankingDay(today) && now.getUTCHours() < 20) return;
  const target = new Date(`${addBankingDays(today, 1)}T12:00:00.000Z`);
  const advanced = await operator.post('/platform/sandbox/clock', {
    advance_seconds: Math.ceil((target.getTime() - now.getTime()) / 1000),
  });
  expect(advanced.status).toBe(200);
  expect(isBankingDay(String(advanced.body.now).slice(0, 10))).toBe(true);
}

describe('POST /platform/settlement/run: end-of-day settlement into per-merchant batches', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let other: TestPartner;
  let merchantId: string;
  let otherMerchantId: string;
  let card: string;
  let bank: string;
  let otherCard: string;
  const ids: Record<string, string> = {};
  let firstBatch: any;

  const run = (body: unknown = {}, key?: string) =>
    platform().operator.post('/platform/settlement/run', body, key ? { idempotencyKey: key } : undefined);
  /** POST /transactions; charges get the currency and use type, follow-ups are sent as given. */
  const charge = async (client: ApiClient, body: Record<string, unknown>) => {
    const defaults = body.parent_transaction_id ? {} : { currency: 'USD', use_type: 'ONE_TIME_FUTURE' };
    const res = await client.post('/transactions', { ...defaults, ...body });
    expect(res.status).toBe(200);
    return res.body;
  };
  const transaction = async (id: string) => {
    const res = await partner.client.get(`/transactions/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const batchEvents = async (batchId: string) => {
    const res = await platform().operator.get(`/platform/streams/batch-${batchId}/events`);
    expect(res.status).toBe(200);
    return res.body.data as any[];
  };

  beforeAll(async () => {
    await onABankingDay(platform().operator);
    partner = await platform().newPartner();
    other = await platform().newPartner({ name: 'Other Software' });
    expect(
      (await partner.client.put('/config/feature-flags/me/ach_payments', { enabled: true })).status,
    ).toBe(200);
    merchantId = await activeMerchant(platform().operator, partner);
    otherMerchantId = await activeMerchant(platform().operator, other, 'Corner Bakery');
    card = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
    bank = (await vaultedCredential(platform(), partner, merchantId, { instrument: CHECKING })).vaultToken;
    otherCard = (await vaultedCredential(platform(), other, otherMerchantId)).vaultToken;

    const sale = (amount: string) =>
      charge(partner.client, { type: 'SALE', merchant_id: merchantId, amount, vault_token: card });
    ids.sale1 = (await sale('25.00')).id;
    ids.sale2 = (await sale('10.50')).id;
    const declined = await sale('10.05');
    expect(declined.state).toBe('FAILED');
    ids.declined = declined.id;
    ids.voided = (await sale('7.00')).id;
    const voided = await charge(partner.client, {
      type: 'VOID',
      merchant_id: merchantId,
      parent_transaction_id: ids.voided,
    });
    expect(voided.state).toBe('VOIDED');
    const debit = await charge(partner.client, {
      type: 'ACH_DEBIT',
      merchant_id: merchantId,
      amount: '50.00',
      vault_token: bank,
    });
    expect(debit.state).toBe('SUBMITTED');
    ids.debit = debit.id;
    ids.otherSale = (
      await charge(other.client, {
        type: 'SALE',
        merchant_id: otherMerchantId,
        amount: '30.00',
        vault_token: otherCard,
      })
    ).id;
  });

  it('is an operator route: a partner key is 403', async () => {
    expectProblem(
      await partner.client.post('/platform/settlement/run', { merchant_id: merchantId }),
      403,
      'unauthorized',
    );
    expect((await transaction(ids.sale1)).state).toBe('CAPTURED');
  });

  it('refuses unknown fields and a malformed merchant_id (400), an unknown merchant (404), a missing key', async () => {
    expectValidationError(await run({ merchant: merchantId }), ['merchant']);
    expectValidationError(await run({ merchant_id: 'not-a-uuid' }), ['merchant_id']);
    expectValidationError(await run({ merchant_id: 42 }), ['merchant_id']);
    expectProblem(await run({ merchant_id: randomUUID() }), 404, 'merchant_not_found');
    const keyless = await platform().operator.post('/platform/settlement/run', {}, { idempotencyKey: null });
    expectProblem(keyless, 400, 'validation_error');
    expect((await transaction(ids.sale1)).state).toBe('CAPTURED');
  });

  it('settles the merchant’s captured sales into one batch; leaves the rest, and an ACH entry not due yet', async () => {
    const key = randomUUID();
    const res = await run({ merchant_id: merchantId }, key);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const batch = res.body.data[0];
    firstBatch = batch;
    for (const field of BATCH_FIELDS) expect(batch).toHaveProperty(field);
    expect(batch).toMatchObject({
      id: expect.stringMatching(UUID),
      merchant_id: merchantId,
      state: 'PENDING',
      reporting_basis: 'gateway_reported',
      processing_account: { merchant_id: merchantId, processor_key: 'SANDBOX_PROCESSOR' },
      vendor_status: 'PENDING',
      gateway_batch_id: expect.stringMatching(/^gw_[0-9a-f]{16}$/),
      processor_batch_id: null,
      closed_settlement_batch_id: null,
      vendor_settlement_batch_id: null,
      transaction_count: 2,
      total_amount: '35.50',
      fees: null,
      net_amount: null,
      expected_settled_count: 2,
      observed_member_count: 2,
      observed_member_amount: '35.50',
      run_date_utc: expect.stringMatching(ISO_TIMESTAMP),
      completed_at_utc: expect.stringMatching(ISO_TIMESTAMP),
      trigger_type: 'operator_run',
      held_reason: null,
      reconciled_at: null,
      created_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    // The clock is on a banking day: the batch settles today; the report is due a banking day later.
    expect(batch.settlement_date).toBe(batch.run_date_utc.slice(0, 10));
    expect(batch.settlement_date).toBe(settlementDateOf(new Date(batch.run_date_utc)));
    expect(batch.expected_by).toBe(expectedByOf(batch.settlement_date));

    for (const id of [ids.sale1, ids.sale2]) {
      expect(await transaction(id)).toMatchObject({
        state: 'SETTLED',
        batch_id: batch.id,
        settled_at: expect.stringMatching(ISO_TIMESTAMP),
      });
    }
    // ACH clears 1 to 3 banking days after submission: submitted today, it is not due today.
    expect(await transaction(ids.debit)).toMatchObject({ state: 'SUBMITTED', batch_id: null });
    expect(await transaction(ids.declined)).toMatchObject({ state: 'FAILED', batch_id: null });
    expect(await transaction(ids.voided)).toMatchObject({ state: 'VOIDED', batch_id: null });
    // The filter kept the other merchant out.
    const untouched = await other.client.get(`/transactions/${ids.otherSale}`);
    expect(untouched.body).toMatchObject({ state: 'CAPTURED', batch_id: null });
    // The list (read model) answers the run at once.
    const listed = await partner.client.get(`/transactions?merchant_id=${merchantId}&state=SETTLED`);
    expect(listed.body.data.map((t: any) => t.id).sort()).toEqual([ids.sale1, ids.sale2].sort());

    // The batch is its own stream, with the members and the request's audit metadata.
    const events = await batchEvents(batch.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'SettlementBatchOpened',
      data: {
        batchId: batch.id,
        merchantId,
        partnerId: partner.id,
        transactionCount: 2,
        totalAmountMinor: '3550',
      },
      metadata: { actor: 'platform-operator', idempotency_key: key },
    });
    const members = events[0].data.members as any[];
    expect(members.map((m) => [m.transactionId, m.rail, m.type, m.amountMinor]).sort()).toEqual(
      [
        [ids.sale1, 'CARD', 'SALE', '2500'],
        [ids.sale2, 'CARD', 'SALE', '1050'],
      ].sort(),
    );
    for (const m of members) {
      expect(m.memberId).toMatch(UUID);
      expect(m.settledAt).toMatch(ISO_TIMESTAMP);
      expect(m.gatewayTransactionId).toEqual(expect.any(String));
    }
    // The transactions' own streams say which batch settled them.
    const history = await platform().operator.get(`/platform/streams/transaction-${ids.sale1}/events`);
    expect(history.body.data.at(-1)).toMatchObject({
      type: 'TransactionSettled',
      data: { transactionId: ids.sale1, batchId: batch.id },
    });

    // The same request again (same key, same body) is the same answer, settling nothing twice.
    const replay = await run({ merchant_id: merchantId }, key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('x-idempotent-replay')).toBe('true');
    expect(replay.body).toEqual(res.body);
    expect(await batchEvents(batch.id)).toHaveLength(1);
  });

  it('a run without a filter takes every merchant, and nothing already settled', async () => {
    const res = await run();
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      merchant_id: otherMerchantId,
      transaction_count: 1,
      total_amount: '30.00',
      state: 'PENDING',
    });
    expect(res.body.data[0].id).not.toBe(firstBatch.id);
    const settled = await other.client.get(`/transactions/${ids.otherSale}`);
    expect(settled.body).toMatchObject({ state: 'SETTLED', batch_id: res.body.data[0].id });
    const events = await batchEvents(res.body.data[0].id);
    expect(events[0].data).toMatchObject({ partnerId: other.id, merchantId: otherMerchantId });
  });

  it('a run with nothing to settle opens no batch', async () => {
    const res = await run();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [] });
    const filtered = await run({ merchant_id: merchantId });
    expect(filtered.body).toEqual({ data: [] });
  });

  it('a refund after settlement settles at the next run, as a negative amount', async () => {
    const refund = await charge(partner.client, {
      type: 'PARTIAL_REFUND',
      merchant_id: merchantId,
      parent_transaction_id: ids.sale1,
      amount: '10.00',
    });
    expect(refund.state).toBe('CAPTURED');
    expect((await transaction(ids.sale1)).state).toBe('PARTIALLY_REFUNDED');

    const res = await run();
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const batch = res.body.data[0];
    expect(batch).toMatchObject({
      merchant_id: merchantId,
      transaction_count: 1,
      total_amount: '-10.00',
      observed_member_amount: '-10.00',
    });
    const events = await batchEvents(batch.id);
    expect(events[0].data.members).toEqual([
      expect.objectContaining({
        transactionId: refund.id,
        rail: 'CARD',
        type: 'PARTIAL_REFUND',
        amountMinor: '-1000',
      }),
    ]);
    expect(await transaction(refund.id)).toMatchObject({ state: 'SETTLED', batch_id: batch.id });
    // The parent keeps its refund state and its own batch.
    expect(await transaction(ids.sale1)).toMatchObject({
      state: 'PARTIALLY_REFUNDED',
      batch_id: firstBatch.id,
    });
  });

  it('settles the ACH entry at the first run on the banking day after its submission', async () => {
    const clock = await platform().operator.get('/platform/sandbox/clock');
    const now = new Date(clock.body.now);
    const next = new Date(`${addBankingDays(now.toISOString().slice(0, 10), 1)}T12:00:00.000Z`);
    const advanced = await platform().operator.post('/platform/sandbox/clock', {
      advance_seconds: Math.ceil((next.getTime() - now.getTime()) / 1000),
    });
    expect(advanced.status).toBe(200);
    const res = await run({ merchant_id: merchantId });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ transaction_count: 1, total_amount: '50.00' });
    expect(res.body.data[0].settlement_date).toBe(next.toISOString().slice(0, 10));
    expect(await transaction(ids.debit)).toMatchObject({ state: 'SETTLED', batch_id: res.body.data[0].id });
  });

  it('a re-run of an interrupted request completes its batch with what the first run settled', async () => {
    const app = platform().service.app;
    const sale = (amount: string) =>
      charge(partner.client, { type: 'SALE', merchant_id: merchantId, amount, vault_token: card });
    const first = await sale('12.00');
    const commandId = randomUUID();
    const batchId = idFor(commandId, `batch:${merchantId}`, randomUUID);
    // The first run settled `first` into its batch and stopped before appending the batch.
    const settled = await transactionStreams(app).execute(
      { type: 'Settle', transactionId: first.id, batchId },
      testMetadata({
        partner_id: partner.id,
        causation_id: idFor(commandId, `${first.id}:settle`, randomUUID),
      }),
    );
    await app.get(ProjectionRunner).waitFor(settled.position!, ['transaction-list']);
    const metadata = testMetadata({ actor: 'platform-operator', causation_id: commandId });

    // The retry (same command id, no filter) finds the merchant by its half-done batch.
    const resumed = await app.get(SettlementRun).run(metadata, null);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatchObject({
      id: batchId,
      merchantId,
      transactionCount: 1,
      totalAmountMinor: '1200',
    });
    const opened = (await batchEvents(batchId))[0].data.members as any[];
    expect(opened.map((m) => m.transactionId)).toEqual([first.id]);

    // Once the batch exists, that request's run is done: a later capture waits for the next run.
    const later = await sale('8.00');
    const again = await app.get(SettlementRun).run(metadata, merchantId);
    expect(again.map((b) => b.id)).toEqual([batchId]);
    expect(await batchEvents(batchId)).toHaveLength(1);
    expect((await transaction(later.id)).state).toBe('CAPTURED');
    const next = await run({ merchant_id: merchantId });
    expect(next.body.data).toHaveLength(1);
    expect(next.body.data[0]).toMatchObject({ transaction_count: 1, total_amount: '8.00' });
  });
});
