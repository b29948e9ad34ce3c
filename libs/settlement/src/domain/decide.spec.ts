import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { decide, type OpenSettlementBatch, type SettledMemberInput } from './decide';
import { evolve, initialState } from './settlement-batch';
import { SettlementBatchInvalid } from './settlement-batch-errors';
import type { SettlementBatchEvent } from './settlement-batch-events';

const BATCH = '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const SALE = '11111111-1111-4111-8111-111111111111';
const DEBIT = '22222222-2222-4222-8222-222222222222';
const REFUND = '33333333-3333-4333-8333-333333333333';
// A Saturday run: the batch settles on Monday 2026-11-23, the report is due by Tuesday's end.
const RUN_AT = new Date('2026-11-21T22:00:00.000Z');
const AT = new Date('2026-11-21T22:00:01.000Z');
const given = deciderSpec({ decide, evolve, initialState });

const member = (fields: Partial<SettledMemberInput>): SettledMemberInput => ({
  memberId: `m-${fields.transactionId ?? SALE}`,
  transactionId: SALE,
  gatewayTransactionId: 'gw_txn_1',
  rail: 'CARD',
  type: 'SALE',
  grossAmountMinor: 2500n,
  currency: 'USD',
  settledAt: '2026-11-21T22:00:00.500Z',
  ...fields,
});

const MEMBERS = [
  member({}),
  member({
    transactionId: DEBIT,
    rail: 'ACH',
    type: 'ACH_DEBIT',
    grossAmountMinor: 5000n,
    gatewayTransactionId: 'ach_1',
  }),
  member({
    transactionId: REFUND,
    type: 'PARTIAL_REFUND',
    grossAmountMinor: 1000n,
    gatewayTransactionId: 'gw_ref_1',
  }),
];

const open = (fields: Partial<OpenSettlementBatch> = {}): OpenSettlementBatch => ({
  type: 'OpenSettlementBatch',
  batchId: BATCH,
  merchantId: MERCHANT,
  partnerId: PARTNER,
  currency: 'USD',
  processorKey: 'SANDBOX_PROCESSOR',
  runAt: RUN_AT,
  members: MEMBERS,
  at: AT,
  ...fields,
});

const opened = (): SettlementBatchEvent => ({
  type: 'SettlementBatchOpened',
  data: {
    batchId: BATCH,
    merchantId: MERCHANT,
    partnerId: PARTNER,
    currency: 'USD',
    processorKey: 'SANDBOX_PROCESSOR',
    gatewayBatchId: 'gw_0b6f3a528a0e4d3c',
    reportingBasis: 'gateway_reported',
    triggerType: 'operator_run',
    runDateUtc: RUN_AT.toISOString(),
    settlementDate: '2026-11-23',
    expectedBy: '2026-11-24T23:59:59.999Z',
    members: [
      {
        memberId: `m-${SALE}`,
        transactionId: SALE,
        gatewayTransactionId: 'gw_txn_1',
        rail: 'CARD',
        type: 'SALE',
        amountMinor: '2500',
        settledAt: '2026-11-21T22:00:00.500Z',
      },
      {
        memberId: `m-${DEBIT}`,
        transactionId: DEBIT,
        gatewayTransactionId: 'ach_1',
        rail: 'ACH',
        type: 'ACH_DEBIT',
        amountMinor: '5000',
        settledAt: '2026-11-21T22:00:00.500Z',
      },
      {
        memberId: `m-${REFUND}`,
        transactionId: REFUND,
        gatewayTransactionId: 'gw_ref_1',
        rail: 'CARD',
        type: 'PARTIAL_REFUND',
        amountMinor: '-1000',
        settledAt: '2026-11-21T22:00:00.500Z',
      },
    ],
    transactionCount: 3,
    totalAmountMinor: '6500',
    openedAt: AT.toISOString(),
  },
});

describe('opening a settlement batch', () => {
  it('records the members signed as money to the merchant, the totals and the banking dates', () =>
    given([]).when(open()).then([opened()]));

  it('is PENDING and gateway_reported, with every member observed and nothing reconciled', () =>
    given([])
      .when(open())
      .thenState((batch) =>
        expect(batch).toMatchObject({
          id: BATCH,
          state: 'PENDING',
          reportingBasis: 'gateway_reported',
          triggerType: 'operator_run',
          transactionCount: 3,
          totalAmountMinor: '6500',
          expectedSettledCount: 3,
          observedMemberCount: 3,
          observedMemberAmountMinor: '6500',
          feesMinor: null,
          netAmountMinor: null,
          processorBatchId: null,
          reconciledAt: null,
          heldReason: null,
          completedAtUtc: AT.toISOString(),
          createdAt: AT.toISOString(),
          version: 1,
        }),
      ));

  it('signs refunds and reversals negative, so a batch of refunds totals below zero', () =>
    given([])
      .when(
        open({
          members: [
            member({ type: 'REFUND', grossAmountMinor: 700n }),
            member({ transactionId: DEBIT, rail: 'ACH', type: 'ACH_REVERSAL', grossAmountMinor: 300n }),
          ],
        }),
      )
      .thenState((batch) => {
        expect(batch!.members.map((m) => m.amountMinor)).toEqual(['-700', '-300']);
        expect(batch!.totalAmountMinor).toBe('-1000');
      }));

  it('opens a batch once: a second open is 409', () =>
    given([opened()]).when(open()).thenThrows(InvalidStateTransition, { from: 'PENDING', action: 'open' }));

  it('opens no empty batch', () =>
    given([])
      .when(open({ members: [] }))
      .thenThrows(SettlementBatchInvalid));

  it('refuses a transaction twice, another currency, or a type that does not settle', () => {
    given([])
      .when(open({ members: [member({}), member({})] }))
      .thenThrows(SettlementBatchInvalid);
    given([])
      .when(open({ members: [member({ currency: 'EUR' })] }))
      .thenThrows(SettlementBatchInvalid);
    given([])
      .when(open({ members: [member({ type: 'VOID' })] }))
      .thenThrows(SettlementBatchInvalid);
  });
});
