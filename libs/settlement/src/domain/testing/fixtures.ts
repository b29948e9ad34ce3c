import type { IngestProcessorReport, OpenSettlementBatch, SettledMemberInput } from '../decide';
import type { ProcessorReport, ReportFacts } from '../processor-report';
import type { SettlementBatchEvent } from '../settlement-batch-events';

/** Fixtures of the settlement deciders' tests: one batch of a sale, an ACH debit and a refund. */
export const BATCH = '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11';
export const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
export const OTHER_MERCHANT = '9c2e3d4f-5a61-4b7c-8d9e-0f1a2b3c4d5e';
export const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
export const SALE = '11111111-1111-4111-8111-111111111111';
export const DEBIT = '22222222-2222-4222-8222-222222222222';
export const REFUND = '33333333-3333-4333-8333-333333333333';
export const STRANGER = '44444444-4444-4444-8444-444444444444';
// A Saturday run: the batch settles on Monday 2026-11-23, the report is due by Tuesday's end.
export const RUN_AT = new Date('2026-11-21T22:00:00.000Z');
export const AT = new Date('2026-11-21T22:00:01.000Z');
export const EXPECTED_BY = '2026-11-24T23:59:59.999Z';
export const REPORT_AT = new Date('2026-11-23T08:00:00.000Z');
export const LATE = new Date('2026-11-25T00:00:00.000Z');

export const member = (fields: Partial<SettledMemberInput>): SettledMemberInput => ({
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

/** A $25.00 sale (with $0.75 of surcharge), a $50.00 ACH debit, a $10.30 refund ($0.30 surcharge reversed). */
export const MEMBERS = [
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
    grossAmountMinor: 1030n,
    gatewayTransactionId: 'gw_ref_1',
  }),
];

export const open = (fields: Partial<OpenSettlementBatch> = {}): OpenSettlementBatch => ({
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

export const opened = (): SettlementBatchEvent => ({
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
    expectedBy: EXPECTED_BY,
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
        amountMinor: '-1030',
        settledAt: '2026-11-21T22:00:00.500Z',
      },
    ],
    transactionCount: 3,
    totalAmountMinor: '6470',
    openedAt: AT.toISOString(),
  },
});

/** The processor's report exactly as the platform recorded the batch, with $1.00 of fees. */
export const cleanReport = (fields: Partial<ProcessorReport> = {}): ProcessorReport => ({
  reportId: 'report-1',
  processorBatchId: 'pb_1',
  vendorSettlementBatchId: 'vs_1',
  lines: [
    { transactionId: SALE, amountMinor: 2500n, settledAt: '2026-11-22T01:00:00.000Z', surchargeMinor: null },
    { transactionId: DEBIT, amountMinor: 5000n, settledAt: '2026-11-22T01:00:00.000Z', surchargeMinor: null },
    {
      transactionId: REFUND,
      amountMinor: -1030n,
      settledAt: '2026-11-22T01:00:00.000Z',
      surchargeMinor: null,
    },
  ],
  totalAmountMinor: 6470n,
  feesMinor: 100n,
  ...fields,
});

export const FACTS: ReportFacts = {
  members: {
    [SALE]: { surchargeMinor: 75n },
    [DEBIT]: { surchargeMinor: 0n },
    [REFUND]: { surchargeMinor: 30n },
  },
  others: {},
  expectedFeesMinor: 100n,
};

export const ingest = (
  report: Partial<ProcessorReport> = {},
  facts: Partial<ReportFacts> = {},
  at = REPORT_AT,
): IngestProcessorReport => ({
  type: 'IngestProcessorReport',
  batchId: BATCH,
  report: cleanReport(report),
  facts: { ...FACTS, ...facts },
  at,
});
