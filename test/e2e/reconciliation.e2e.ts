/* eslint-disable @typescript-eslint/no-explicit-any -- JSON bodies are inspected freely */
import { randomUUID } from 'node:crypto';
import { ProjectionRunner } from '../../libs/projections/src';
import { ReconciliationSweep } from '../../libs/settlement/src/application/reconciliation-sweep';
import { useTestPlatform, type TestPartner } from '../support/api';
import { activeMerchant, CHECKING, vaultedCredential } from '../support/payments';
import { expectProblem, expectValidationError, ISO_TIMESTAMP } from '../support/problems';
import { eventually } from '../support/webhook-receiver';

/** Every field of the spec's Reconciliation exception. */
const EXCEPTION_FIELDS = [
  'id',
  'batch_id',
  'merchant_id',
  'transaction_id',
  'type',
  'state',
  'severity',
  'description',
  'expected_by',
  'observed_at',
  'resolved_by',
  'resolved_at',
  'resolution',
  'created_at',
];

/** What the merchant's FLAT_RATE profile (2.90% + $0.30 a card charge) gives, written independently. */
const cardFee = (grossCents: number) => Math.floor((grossCents * 290 + 5000) / 10000) + 30;
const money = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/**
 * Settlement reconciliation through HTTP on the real app: the processor's report and every
 * exception type it produces, a later report that removes differences, the operator's resolve,
 * the sweep's clock-driven exceptions on the sandbox clock, and the partner's reads.
 */
describe('settlement reconciliation: processor reports, exceptions, resolution and partner reads', () => {
  const platform = useTestPlatform();
  let partner: TestPartner;
  let other: TestPartner;
  let merchantId: string;
  let quietMerchantId: string;
  let otherMerchantId: string;
  let card: string;
  let bank: string;
  const tx: Record<string, any> = {};
  const batch: Record<string, any> = {};
  const exceptionOf: Record<string, any> = {};
  let firstReport: { body: any; key: string };

  const operator = () => platform().operator;
  const sweep = () => platform().service.app.get(ReconciliationSweep).sweep();
  const report = (batchId: string, body: unknown, key?: string) =>
    operator().post(
      `/platform/settlement/batches/${batchId}/processor-report`,
      body,
      key ? { idempotencyKey: key } : undefined,
    );
  const resolve = (id: string, state: string, resolution = `${state.toLowerCase()} after review`) =>
    operator().post(`/platform/reconciliation-exceptions/${id}/resolve`, { state, resolution });
  const sale = async (amount: string, merchant = merchantId, token = card) => {
    const res = await partner.client.post('/transactions', {
      type: 'SALE',
      merchant_id: merchant,
      amount,
      currency: 'USD',
      vault_token: token,
      use_type: 'ONE_TIME_FUTURE',
    });
    expect(res.body.state).toBe('CAPTURED');
    return res.body;
  };
  const exceptions = async (query = '') => {
    const res = await partner.client.get(`/settlement/exceptions${query}`);
    expect(res.status).toBe(200);
    return res.body.data as any[];
  };
  const read = async (id: string) => (await partner.client.get(`/settlement/batches/${id}`)).body;
  const batchEvents = async (id: string) =>
    (await operator().get(`/platform/streams/batch-${id}/events`)).body.data as any[];
  const advanceDays = (days: number) =>
    operator().post('/platform/sandbox/clock', { advance_seconds: days * 86_400 });

  beforeAll(async () => {
    partner = await platform().newPartner();
    other = await platform().newPartner({ name: 'Other Software' });
    await operator().put(`/platform/partners/${partner.id}/feature-flags/surcharging`, { enabled: true });
    await operator().put(`/platform/partners/${partner.id}/feature-flags/ach_payments`, { enabled: true });
    merchantId = await activeMerchant(operator(), partner, 'Reconciled Shop', { business_state: 'NY' });
    quietMerchantId = await activeMerchant(operator(), partner, 'Quiet Shop');
    otherMerchantId = await activeMerchant(operator(), other, 'Other Shop');
    expect(
      (
        await partner.client.put(`/merchants/${merchantId}/fee-profile`, {
          pricing_model: 'FLAT_RATE',
          card_rate_bps: 290,
          card_fixed_fee: '0.30',
          ach_rate_bps: 80,
          ach_fixed_fee: '0.25',
          ach_fee_cap: '5.00',
          monthly_fee: '10.00',
          effective_date: '2026-01-01',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await partner.client.put(`/merchants/${merchantId}/fee-settings/surcharge`, {
          enabled: true,
          percent_bps: 250,
        })
      ).status,
    ).toBe(200);
    card = (await vaultedCredential(platform(), partner, merchantId)).vaultToken;
    bank = (await vaultedCredential(platform(), partner, merchantId, { instrument: CHECKING })).vaultToken;
  });

  it('a report that matches the batch reconciles it: report_verified, RECONCILED, fees from the fee profile, payout released', async () => {
    tx.s0 = await sale('80.00'); // 2.50% surcharge: 82.00 charged
    const run = await operator().post('/platform/settlement/run', { merchant_id: merchantId });
    batch.zero = run.body.data[0];
    expect(batch.zero).toMatchObject({
      transaction_count: 1,
      total_amount: '82.00',
      state: 'PENDING',
      vendor_status: 'PENDING',
    });
    const fees = cardFee(8200);
    const res = await report(batch.zero.id, {
      lines: [
        {
          transaction_id: tx.s0.id,
          amount: '82.00',
          settled_at: '2026-11-23T01:00:00Z',
          surcharge_amount: '2.00',
        },
      ],
      total_amount: '82.00',
      fees: money(fees),
      processor_batch_id: 'PB-0001',
      vendor_settlement_batch_id: 'VS-0001',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: batch.zero.id,
      state: 'RECONCILED',
      reporting_basis: 'report_verified',
      vendor_status: 'RELEASED',
      processor_batch_id: 'PB-0001',
      vendor_settlement_batch_id: 'VS-0001',
      closed_settlement_batch_id: `csb_${batch.zero.id.replace(/-/g, '').slice(0, 16)}`,
      fees: money(fees),
      net_amount: money(8200 - fees),
      expected_settled_count: 1,
      observed_member_count: 1,
      observed_member_amount: '82.00',
      held_reason: null,
      reconciled_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expect(await exceptions()).toEqual([]);
    const members = await partner.client.get(`/settlement/batches/${batch.zero.id}/transactions`);
    expect(members.body.data).toEqual([
      expect.objectContaining({
        transaction_id: tx.s0.id,
        amount: '82.00',
        match_state: 'MATCHED',
        reported_amount: '82.00',
      }),
    ]);
  });

  it('a report with differences opens one exception per difference, of ten report-driven types, and holds the payout', async () => {
    tx.refund = (
      await partner.client.post('/transactions', {
        type: 'PARTIAL_REFUND',
        merchant_id: merchantId,
        parent_transaction_id: tx.s0.id,
        amount: '40.00',
      })
    ).body; // reverses 1.00 of surcharge: -41.00
    tx.s1 = await sale('100.00'); // 102.50 (2.50 surcharge)
    tx.s2 = await sale('40.00'); // 41.00
    tx.s3 = await sale('20.00'); // 20.50
    tx.s4 = await sale('10.00'); // 10.25
    tx.s5 = await sale('30.00'); // 30.75
    tx.quiet = await sale(
      '15.00',
      quietMerchantId,
      (await vaultedCredential(platform(), partner, quietMerchantId)).vaultToken,
    );
    const run = await operator().post('/platform/settlement/run', {});
    expect(run.status).toBe(200);
    batch.b = run.body.data.find((b: any) => b.merchant_id === merchantId);
    batch.quiet = run.body.data.find((b: any) => b.merchant_id === quietMerchantId);
    expect(batch.b).toMatchObject({ transaction_count: 6, total_amount: '164.00' });

    const stranger = randomUUID();
    const lines = [
      {
        transaction_id: tx.s1.id,
        amount: '103.00',
        settled_at: '2026-11-24T01:00:00Z',
        surcharge_amount: '3.00',
      },
      {
        transaction_id: tx.s2.id,
        amount: '42.00',
        settled_at: '2026-11-24T01:00:00Z',
        surcharge_amount: '1.00',
      },
      { transaction_id: tx.s4.id, amount: '10.00', settled_at: '2026-11-24T01:00:00Z' },
      { transaction_id: tx.s5.id, amount: '30.75', settled_at: '2026-11-24T01:00:00Z' },
      { transaction_id: tx.s5.id, amount: '30.75', settled_at: '2026-11-24T01:00:00Z' },
      {
        transaction_id: tx.refund.id,
        amount: '-40.50',
        settled_at: '2026-11-24T01:00:00Z',
        surcharge_amount: '0.50',
      },
      { transaction_id: tx.s0.id, amount: '82.00', settled_at: '2026-11-24T01:00:00Z' },
      { transaction_id: stranger, amount: '5.00', settled_at: '2026-11-24T01:00:00Z' },
    ];
    const footed = 10300 + 4200 + 1000 + 3075 + 3075 - 4050 + 8200 + 500;
    const key = randomUUID();
    const body = { lines, total_amount: money(footed + 100), fees: '9.99' };
    const res = await report(batch.b.id, body, key);
    firstReport = { body, key };
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      state: 'EXCEPTION',
      reporting_basis: 'report_verified',
      vendor_status: 'HELD',
      fees: '9.99',
      net_amount: money(16400 - 999),
      expected_settled_count: 6,
      observed_member_count: 5,
      held_reason: expect.stringMatching(/^payout held: 10 outstanding reconciliation exceptions \(/),
    });

    const opened = await exceptions(`?merchant_id=${merchantId}`);
    for (const e of opened) {
      for (const field of EXCEPTION_FIELDS) expect(e).toHaveProperty(field);
      exceptionOf[e.type] = e;
    }
    expect(opened.map((e) => [e.type, e.transaction_id, e.severity, e.state]).sort()).toEqual(
      [
        ['AMOUNT_MISMATCH', tx.s4.id, 'MEDIUM', 'OPEN'],
        ['ASSESSED_SURCHARGE_MISMATCH', tx.s1.id, 'MEDIUM', 'OPEN'],
        ['BATCH_TOTAL_MISMATCH', null, 'HIGH', 'OPEN'],
        ['CAPTURED_AMOUNT_MISMATCH', tx.s2.id, 'HIGH', 'OPEN'],
        ['DUPLICATE_TRANSACTION', tx.s5.id, 'HIGH', 'OPEN'],
        ['EXTRA_TRANSACTION', tx.s0.id, 'HIGH', 'OPEN'],
        ['FEE_MISMATCH', null, 'LOW', 'OPEN'],
        ['MISSING_TRANSACTION', tx.s3.id, 'HIGH', 'OPEN'],
        ['SURCHARGE_REVERSAL_MISMATCH', tx.refund.id, 'MEDIUM', 'OPEN'],
        ['UNMATCHED_PLATFORM', stranger, 'CRITICAL', 'OPEN'],
      ].sort(),
    );
    expect(exceptionOf.FEE_MISMATCH).toMatchObject({
      batch_id: batch.b.id,
      merchant_id: merchantId,
      expected_by: batch.b.expected_by,
      observed_at: expect.stringMatching(ISO_TIMESTAMP),
      resolved_by: null,
      resolved_at: null,
      resolution: null,
      expected_amount: money(cardFee(10250) + cardFee(4100) + cardFee(2050) + cardFee(1025) + cardFee(3075)),
      observed_amount: '9.99',
    });
    expect(exceptionOf.ASSESSED_SURCHARGE_MISMATCH).toMatchObject({
      expected_amount: '2.50',
      observed_amount: '3.00',
    });
    expect(exceptionOf.SURCHARGE_REVERSAL_MISMATCH).toMatchObject({
      expected_amount: '-1.00',
      observed_amount: '-0.50',
    });
    expect(exceptionOf.CAPTURED_AMOUNT_MISMATCH).toMatchObject({
      expected_amount: '40.00',
      observed_amount: '41.00',
    });

    const members = (await partner.client.get(`/settlement/batches/${batch.b.id}/transactions?page_size=100`))
      .body.data;
    const state = Object.fromEntries(members.map((m: any) => [m.transaction_id, m.match_state]));
    expect(state).toEqual({
      [tx.refund.id]: 'MISMATCHED',
      [tx.s1.id]: 'MISMATCHED',
      [tx.s2.id]: 'MISMATCHED',
      [tx.s3.id]: 'MISSING',
      [tx.s4.id]: 'MISMATCHED',
      [tx.s5.id]: 'MISMATCHED',
    });
  });

  it('the batch and its exceptions are the partner’s events (GET /events, what webhooks deliver)', async () => {
    const ofBatch = (e: any) => e.data.object.id === batch.b.id || e.data.object.batch_id === batch.b.id;
    const events = await eventually(
      async () =>
        (await partner.client.get(`/events?merchant_id=${merchantId}&page_size=100`)).body.data as any[],
      (data) => data.filter((e) => e.type === 'reconciliation_exception.opened' && ofBatch(e)).length === 10,
    );
    const types = events.filter(ofBatch).map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['settlement_batch.opened', 'settlement_batch.report_verified']),
    );
    const opened = events.filter((e) => e.type === 'reconciliation_exception.opened' && ofBatch(e));
    expect(opened.map((e) => e.data.object.type).sort()).toEqual(Object.keys(exceptionOf).sort());
    for (const e of opened) expect(e).toMatchObject({ partner_id: partner.id, merchant_id: merchantId });
  });

  it('the same report with the same Idempotency-Key changes nothing twice', async () => {
    const before = await batchEvents(batch.b.id);
    const replay = await report(batch.b.id, firstReport.body, firstReport.key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('x-idempotent-replay')).toBe('true');
    expect(await batchEvents(batch.b.id)).toHaveLength(before.length);
    expect(await exceptions(`?merchant_id=${merchantId}`)).toHaveLength(10);
  });

  it('refuses a malformed report naming the line and field, an unknown batch, a final batch, a partner key', async () => {
    const line = { transaction_id: tx.s1.id, amount: '102.50', settled_at: '2026-11-24T01:00:00Z' };
    expectValidationError(
      await report(batch.b.id, {
        lines: [line, { ...line, amount: 102.5 }],
        total_amount: '205.00',
        fees: '0.00',
      }),
      ['lines[1].amount'],
    );
    expectValidationError(
      await report(batch.b.id, {
        lines: [
          { ...line, transaction_id: 'nope' },
          { ...line, settled_at: 'yesterday' },
        ],
        total_amount: '205',
        fees: '-1.00',
        extra: true,
      }),
      ['lines[0].transaction_id', 'lines[1].settled_at', 'total_amount', 'fees', 'extra'],
    );
    expectProblem(
      await report(randomUUID(), { lines: [line], total_amount: '102.50', fees: '0.00' }),
      404,
      'settlement_batch_not_found',
    );
    expectProblem(
      await report(batch.zero.id, { lines: [], total_amount: '0.00', fees: '0.00' }),
      409,
      'invalid_state_transition',
    );
    expectProblem(
      await partner.client.post(`/platform/settlement/batches/${batch.b.id}/processor-report`, {
        lines: [],
        total_amount: '0.00',
        fees: '0.00',
      }),
      403,
      'unauthorized',
    );
  });

  it('a later report that removes differences makes their exceptions AUTO_RESOLVED', async () => {
    const fees = cardFee(10250) + cardFee(4100) + cardFee(2050) + cardFee(1025) + cardFee(3075);
    const lines = [
      {
        transaction_id: tx.s1.id,
        amount: '102.50',
        settled_at: '2026-11-24T01:00:00Z',
        surcharge_amount: '2.50',
      },
      {
        transaction_id: tx.s2.id,
        amount: '42.00',
        settled_at: '2026-11-24T01:00:00Z',
        surcharge_amount: '1.00',
      },
      { transaction_id: tx.s4.id, amount: '10.25', settled_at: '2026-11-24T01:00:00Z' },
      { transaction_id: tx.s5.id, amount: '30.75', settled_at: '2026-11-24T01:00:00Z' },
      {
        transaction_id: tx.refund.id,
        amount: '-40.50',
        settled_at: '2026-11-24T01:00:00Z',
        surcharge_amount: '0.50',
      },
      { transaction_id: tx.s0.id, amount: '82.00', settled_at: '2026-11-24T01:00:00Z' },
      {
        transaction_id: exceptionOf.UNMATCHED_PLATFORM.transaction_id,
        amount: '5.00',
        settled_at: '2026-11-24T01:00:00Z',
      },
    ];
    const total = 10250 + 4200 + 1025 + 3075 - 4050 + 8200 + 500;
    const res = await report(batch.b.id, { lines, total_amount: money(total), fees: money(fees) });
    expect(res.body).toMatchObject({ state: 'EXCEPTION', fees: money(fees) });
    const byType = Object.fromEntries(
      (await exceptions(`?merchant_id=${merchantId}`)).map((e) => [e.type, e]),
    );
    for (const type of [
      'ASSESSED_SURCHARGE_MISMATCH',
      'AMOUNT_MISMATCH',
      'FEE_MISMATCH',
      'BATCH_TOTAL_MISMATCH',
      'DUPLICATE_TRANSACTION',
    ]) {
      expect(byType[type]).toMatchObject({
        id: exceptionOf[type].id,
        state: 'AUTO_RESOLVED',
        resolved_by: 'system:reconciliation',
        resolved_at: expect.stringMatching(ISO_TIMESTAMP),
        resolution: expect.stringMatching(/no longer shows the difference/),
      });
    }
    for (const type of [
      'CAPTURED_AMOUNT_MISMATCH',
      'MISSING_TRANSACTION',
      'SURCHARGE_REVERSAL_MISMATCH',
      'EXTRA_TRANSACTION',
      'UNMATCHED_PLATFORM',
    ]) {
      expect(byType[type]).toMatchObject({ id: exceptionOf[type].id, state: 'OPEN' });
    }
    expect(res.body.held_reason).toBe(
      'payout held: 5 outstanding reconciliation exceptions (CAPTURED_AMOUNT_MISMATCH, EXTRA_TRANSACTION, MISSING_TRANSACTION, SURCHARGE_REVERSAL_MISMATCH, UNMATCHED_PLATFORM)',
    );
  });

  it('the operator resolves, writes off or escalates; a resolved exception is 409; a partner key 403; the batch closes with exceptions', async () => {
    expectProblem(
      await partner.client.post(
        `/platform/reconciliation-exceptions/${exceptionOf.MISSING_TRANSACTION.id}/resolve`,
        { state: 'WRITTEN_OFF', resolution: 'x' },
      ),
      403,
      'unauthorized',
    );
    expectProblem(await resolve(randomUUID(), 'MANUAL_RESOLVED'), 404, 'reconciliation_exception_not_found');
    expectValidationError(
      await operator().post(
        `/platform/reconciliation-exceptions/${exceptionOf.MISSING_TRANSACTION.id}/resolve`,
        { state: 'AUTO_RESOLVED', resolution: ' ' },
      ),
      ['state', 'resolution'],
    );

    const written = await resolve(
      exceptionOf.MISSING_TRANSACTION.id,
      'WRITTEN_OFF',
      'processor confirmed it will not settle',
    );
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({
      state: 'WRITTEN_OFF',
      resolved_by: 'platform-operator',
      resolution: 'processor confirmed it will not settle',
      resolved_at: expect.stringMatching(ISO_TIMESTAMP),
    });
    expectProblem(
      await resolve(exceptionOf.MISSING_TRANSACTION.id, 'MANUAL_RESOLVED'),
      409,
      'invalid_state_transition',
    );
    expectProblem(await resolve(exceptionOf.FEE_MISMATCH.id, 'WRITTEN_OFF'), 409, 'invalid_state_transition');

    expect(
      (await resolve(exceptionOf.SURCHARGE_REVERSAL_MISMATCH.id, 'ESCALATED', 'asked the processor')).body,
    ).toMatchObject({
      state: 'ESCALATED',
      resolved_by: 'platform-operator',
    });
    expectProblem(
      await resolve(exceptionOf.SURCHARGE_REVERSAL_MISMATCH.id, 'ESCALATED'),
      409,
      'invalid_state_transition',
    );
    for (const type of ['CAPTURED_AMOUNT_MISMATCH', 'EXTRA_TRANSACTION', 'UNMATCHED_PLATFORM']) {
      expect((await resolve(exceptionOf[type].id, 'MANUAL_RESOLVED')).status).toBe(200);
    }
    expect(await read(batch.b.id)).toMatchObject({
      state: 'EXCEPTION',
      held_reason: expect.stringMatching(/1 outstanding/),
    });
    expect(
      (await resolve(exceptionOf.SURCHARGE_REVERSAL_MISMATCH.id, 'MANUAL_RESOLVED', 'processor corrected it'))
        .body.state,
    ).toBe('MANUAL_RESOLVED');
    const closed = await read(batch.b.id);
    expect(closed).toMatchObject({
      state: 'CLOSED_WITH_EXCEPTIONS',
      vendor_status: 'RELEASED',
      held_reason: null,
      reconciled_at: expect.stringMatching(ISO_TIMESTAMP),
      closed_settlement_batch_id: expect.stringMatching(/^csb_[0-9a-f]{16}$/),
    });
    // The exception's stream is its audit trail.
    const history = await operator().get(
      `/platform/streams/reconciliation_exception-${exceptionOf.SURCHARGE_REVERSAL_MISMATCH.id}/events`,
    );
    expect(history.body.data.map((e: any) => [e.type, e.metadata.actor])).toEqual([
      ['ReconciliationExceptionOpened', 'platform-operator'],
      ['ReconciliationExceptionEscalated', 'platform-operator'],
      ['ReconciliationExceptionResolved', 'platform-operator'],
    ]);
  });

  it('the sweep on the sandbox clock raises MISSING_BATCH, UNSETTLED_TRANSACTION and LATE_PRESENTMENT; a null severity matches no severity filter', async () => {
    tx.debit = (
      await partner.client.post('/transactions', {
        type: 'ACH_DEBIT',
        merchant_id: merchantId,
        amount: '50.00',
        currency: 'USD',
        vault_token: bank,
        use_type: 'ONE_TIME_FUTURE',
      })
    ).body;
    expect(tx.debit.state).toBe('SUBMITTED');
    tx.late = await sale('12.00');
    expect((await sweep()).missingReports).toBe(0);
    expect(await exceptions('?type=MISSING_BATCH')).toEqual([]);

    expect((await advanceDays(10)).status).toBe(200);
    const swept = await sweep();
    expect(swept).toMatchObject({ missingReports: 1, unsettledTransactions: 1, latePresentments: 1 });
    const [missing] = await exceptions('?type=MISSING_BATCH');
    expect(missing).toMatchObject({
      batch_id: batch.quiet.id,
      merchant_id: quietMerchantId,
      severity: 'HIGH',
      state: 'OPEN',
      expected_by: batch.quiet.expected_by,
    });
    expect(await read(batch.quiet.id)).toMatchObject({
      state: 'EXCEPTION',
      vendor_status: 'HELD',
      held_reason: 'payout held: 1 outstanding reconciliation exception (MISSING_BATCH)',
    });
    const [unsettled] = await exceptions('?type=UNSETTLED_TRANSACTION');
    expect(unsettled).toMatchObject({
      transaction_id: tx.debit.id,
      batch_id: null,
      severity: 'MEDIUM',
      expected_amount: '50.00',
    });
    const [late] = await exceptions('?type=LATE_PRESENTMENT');
    expect(late).toMatchObject({ transaction_id: tx.late.id, batch_id: null, severity: null, state: 'OPEN' });
    exceptionOf.MISSING_BATCH = missing;
    exceptionOf.UNSETTLED_TRANSACTION = unsettled;
    exceptionOf.LATE_PRESENTMENT = late;

    for (const severity of ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']) {
      const filtered = await exceptions(`?severity=${severity}`);
      expect(filtered.every((e) => e.severity === severity)).toBe(true);
      expect(filtered.map((e) => e.id)).not.toContain(late.id);
    }
    // A second pass raises nothing twice.
    expect(await sweep()).toMatchObject({ missingReports: 0, unsettledTransactions: 0, latePresentments: 0 });
  });

  it('the operator lists every partner’s exceptions, filtered strictly, partner by partner', async () => {
    const mine = await operator().get(
      `/platform/reconciliation-exceptions?state=OPEN&partner_id=${partner.id}`,
    );
    expect(mine.status).toBe(200);
    const ids = mine.body.data.map((x: any) => x.id);
    for (const type of ['MISSING_BATCH', 'UNSETTLED_TRANSACTION', 'LATE_PRESENTMENT']) {
      expect(ids).toContain(exceptionOf[type].id);
    }
    expect(mine.body.data.every((x: any) => x.state === 'OPEN')).toBe(true);
    const theirs = await operator().get(`/platform/reconciliation-exceptions?partner_id=${other.id}`);
    expect(theirs.body.data.map((x: any) => x.id)).not.toContain(exceptionOf.MISSING_BATCH.id);
    expectValidationError(await operator().get('/platform/reconciliation-exceptions?state=SHUT'), ['state']);
    expectValidationError(await operator().get('/platform/reconciliation-exceptions?partner_id=nope'), [
      'partner_id',
    ]);
    expectProblem(await partner.client.get('/platform/reconciliation-exceptions'), 403, 'unauthorized');
  });

  it('the clock-driven exceptions auto-resolve: the report arrives, the entry and the capture settle', async () => {
    const quiet = await report(batch.quiet.id, {
      lines: [{ transaction_id: tx.quiet.id, amount: '15.00', settled_at: '2026-11-24T01:00:00Z' }],
      total_amount: '15.00',
      fees: '0.00',
    });
    expect(quiet.body).toMatchObject({ state: 'RECONCILED', net_amount: '15.00' });
    expect((await exceptions('?type=MISSING_BATCH'))[0]).toMatchObject({
      state: 'AUTO_RESOLVED',
      resolution: expect.stringMatching(/arrived/),
    });

    const run = await operator().post('/platform/settlement/run', { merchant_id: merchantId });
    expect(run.body.data[0]).toMatchObject({ transaction_count: 2 });
    expect((await sweep()).autoResolved).toBe(2);
    for (const type of ['UNSETTLED_TRANSACTION', 'LATE_PRESENTMENT']) {
      expect((await exceptions(`?type=${type}`))[0]).toMatchObject({
        state: 'AUTO_RESOLVED',
        resolved_by: 'system:reconciliation',
        resolution: `transaction ${exceptionOf[type].transaction_id} settled in batch ${run.body.data[0].id}`,
      });
    }
    // All thirteen types have been produced through this API.
    const types = new Set((await exceptions('?page_size=100')).map((e) => e.type));
    expect(types.size).toBe(13);
  });

  it('partner reads: filters are strict (400, never the unfiltered list), another partner’s batch is 404, lists page', async () => {
    const client = partner.client;
    for (const query of [
      '?merchant_id=',
      '?merchant_id=%20',
      '?merchant_id=nope',
      '?state=pending',
      '?state=OPEN',
      '?merchant=x',
      `?merchant_id=${merchantId}&merchant_id=${merchantId}`,
    ]) {
      expect((await client.get(`/settlement/batches${query}`)).status).toBe(400);
    }
    for (const query of [
      '?merchant_id=',
      '?state=RESOLVED',
      '?type=MISSING',
      '?severity=low',
      '?severity=',
      '?kind=FEE_MISMATCH',
    ]) {
      expectProblem(await client.get(`/settlement/exceptions${query}`), 400, 'validation_error');
    }
    expectProblem(
      await client.get(`/settlement/batches?merchant_id=${otherMerchantId}`),
      404,
      'merchant_not_found',
    );
    expectProblem(
      await client.get(`/settlement/exceptions?merchant_id=${otherMerchantId}`),
      404,
      'merchant_not_found',
    );
    expectProblem(
      await other.client.get(`/settlement/batches/${batch.b.id}`),
      404,
      'settlement_batch_not_found',
    );
    expectProblem(
      await other.client.get(`/settlement/batches/${batch.b.id}/transactions`),
      404,
      'settlement_batch_not_found',
    );
    expect((await other.client.get('/settlement/batches')).body.data).toEqual([]);
    expect((await other.client.get('/settlement/exceptions')).body.data).toEqual([]);
    expectProblem(await operator().get('/settlement/batches'), 403, 'unauthorized');
    expectProblem(await client.get(`/settlement/batches/not-a-uuid`), 400, 'validation_error');

    const closed = await client.get(
      `/settlement/batches?merchant_id=${merchantId}&state=CLOSED_WITH_EXCEPTIONS`,
    );
    expect(closed.body.data.map((b: any) => b.id)).toEqual([batch.b.id]);
    const all = await client.get('/settlement/batches');
    expect(all.body.pagination.total_count).toBe(4);
    const open = await client.get('/settlement/exceptions?state=OPEN');
    expect(open.body.data).toEqual([]);
    const high = await client.get(
      `/settlement/exceptions?merchant_id=${merchantId}&severity=HIGH&state=AUTO_RESOLVED`,
    );
    expect(high.body.data.map((e: any) => e.type).sort()).toEqual([
      'BATCH_TOTAL_MISMATCH',
      'DUPLICATE_TRANSACTION',
    ]);

    const first = await client.get(`/settlement/batches/${batch.b.id}/transactions?page_size=4`);
    expect(first.body.pagination).toMatchObject({ has_more: true, total_count: 6 });
    const second = await client.get(
      `/settlement/batches/${batch.b.id}/transactions?page_size=4&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
    );
    expect(second.body.pagination).toMatchObject({ has_more: false, next_cursor: null });
    expect([...first.body.data, ...second.body.data].map((m: any) => m.transaction_id)).toEqual([
      tx.refund.id,
      tx.s1.id,
      tx.s2.id,
      tx.s3.id,
      tx.s4.id,
      tx.s5.id,
    ]);
    const foreign = await client.get(
      `/settlement/batches/${batch.zero.id}/transactions?cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`,
    );
    expectProblem(foreign, 400, 'validation_error');
  });

  it('the settlement read models rebuild from the events to the same lists', async () => {
    const lists = async () => [
      (await partner.client.get('/settlement/batches?page_size=100')).body,
      (await partner.client.get('/settlement/exceptions?page_size=100')).body,
      (await partner.client.get(`/settlement/batches/${batch.b.id}/transactions?page_size=100`)).body,
    ];
    const before = await lists();
    const runner = platform().service.app.get(ProjectionRunner);
    await runner.rebuild('settlement-batch-list');
    await runner.rebuild('reconciliation-exception-list');
    expect(await lists()).toEqual(before);
  });
});
