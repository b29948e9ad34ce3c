import { decide } from './decide';
import { evolve, initialState } from './settlement-batch';
import { toBatchMemberResource, toBatchResource } from './settlement-batch-resource';

/** Every field of the spec's Settlement batch. */
const SPEC_FIELDS = [
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

const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';

function batch() {
  const events = decide(
    {
      type: 'OpenSettlementBatch',
      batchId: '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11',
      merchantId: MERCHANT,
      partnerId: '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10',
      currency: 'USD',
      processorKey: 'SANDBOX_PROCESSOR',
      runAt: new Date('2026-11-20T22:00:00.000Z'),
      at: new Date('2026-11-20T22:00:02.000Z'),
      members: [
        {
          memberId: 'a0000000-0000-4000-8000-000000000001',
          transactionId: '11111111-1111-4111-8111-111111111111',
          gatewayTransactionId: 'gw_1',
          rail: 'CARD',
          type: 'SALE',
          grossAmountMinor: 2550n,
          currency: 'USD',
          settledAt: '2026-11-20T22:00:01.000Z',
        },
        {
          memberId: 'a0000000-0000-4000-8000-000000000002',
          transactionId: '22222222-2222-4222-8222-222222222222',
          gatewayTransactionId: 'gw_2',
          rail: 'CARD',
          type: 'REFUND',
          grossAmountMinor: 3000n,
          currency: 'USD',
          settledAt: '2026-11-20T22:00:01.000Z',
        },
      ],
    },
    initialState(),
  );
  return events.reduce(evolve, initialState())!;
}

describe('the settlement batch resource', () => {
  it('has every field of the spec, money as signed decimal strings, report fields null', () => {
    const resource = toBatchResource(batch());
    for (const field of SPEC_FIELDS) expect(resource).toHaveProperty(field);
    expect(resource).toMatchObject({
      state: 'PENDING',
      reporting_basis: 'gateway_reported',
      processing_account: { merchant_id: MERCHANT, processor_key: 'SANDBOX_PROCESSOR' },
      vendor_status: 'PENDING',
      gateway_batch_id: 'gw_0b6f3a528a0e4d3c',
      processor_batch_id: null,
      closed_settlement_batch_id: null,
      vendor_settlement_batch_id: null,
      transaction_count: 2,
      total_amount: '-4.50',
      fees: null,
      net_amount: null,
      expected_settled_count: 2,
      observed_member_count: 2,
      observed_member_amount: '-4.50',
      run_date_utc: '2026-11-20T22:00:00.000Z',
      completed_at_utc: '2026-11-20T22:00:02.000Z',
      trigger_type: 'operator_run',
      settlement_date: '2026-11-20',
      expected_by: '2026-11-23T23:59:59.999Z',
      held_reason: null,
      reconciled_at: null,
      created_at: '2026-11-20T22:00:02.000Z',
    });
  });

  it('shows a member as the spec’s batch member, RECORDED until the processor matches it', () => {
    const b = batch();
    expect(toBatchMemberResource(b.members[1], b.currency)).toEqual({
      id: 'a0000000-0000-4000-8000-000000000002',
      transaction_id: '22222222-2222-4222-8222-222222222222',
      gateway_transaction_id: 'gw_2',
      rail: 'CARD',
      type: 'REFUND',
      amount: '-30.00',
      settled_at: '2026-11-20T22:00:01.000Z',
      match_state: 'RECORDED',
      reported_amount: null,
    });
  });
});
