import { reconcileReport, type BatchDifference, type ProcessorReportLine } from './processor-report';
import { EXCEPTION_RULES, EXCEPTION_TYPES } from './reconciliation-exception-rules';
import { evolve, initialState, type SettlementBatch } from './settlement-batch';
import {
  cleanReport,
  DEBIT,
  FACTS,
  MERCHANT,
  OTHER_MERCHANT,
  opened,
  REFUND,
  SALE,
  STRANGER,
} from './testing/fixtures';

const batch = (): SettlementBatch => evolve(initialState(), opened())!;
const line = (fields: Partial<ProcessorReportLine>): ProcessorReportLine => ({
  transactionId: SALE,
  amountMinor: 2500n,
  settledAt: '2026-11-22T01:00:00.000Z',
  surchargeMinor: null,
  ...fields,
});
const [SALE_LINE, DEBIT_LINE, REFUND_LINE] = cleanReport().lines;

/** The differences of a report: its lines (the clean ones by default) and total. */
function differences(
  lines: readonly ProcessorReportLine[],
  fields: { total?: bigint; fees?: bigint; facts?: Partial<typeof FACTS> } = {},
): BatchDifference[] {
  const total = fields.total ?? lines.reduce((sum, l) => sum + l.amountMinor, 0n);
  return reconcileReport(
    batch(),
    cleanReport({ lines, totalAmountMinor: total, feesMinor: fields.fees ?? 100n }),
    { ...FACTS, ...fields.facts },
  ).differences;
}

describe('reconciling a processor report: one rule per exception type (docs/reconciliation.md)', () => {
  it('a clean report has no difference and matches every member', () => {
    const result = reconcileReport(batch(), cleanReport(), FACTS);
    expect(result.differences).toEqual([]);
    expect(result.memberMatches.map((m) => m.matchState)).toEqual(['MATCHED', 'MATCHED', 'MATCHED']);
    expect(result).toMatchObject({ observedMemberCount: 3, observedMemberAmountMinor: 6470n });
  });

  it('MISSING_TRANSACTION: a member without a line', () => {
    const result = reconcileReport(
      batch(),
      cleanReport({ lines: [SALE_LINE, REFUND_LINE], totalAmountMinor: 1470n }),
      FACTS,
    );
    expect(result.differences).toEqual([
      {
        key: `MISSING_TRANSACTION:${DEBIT}`,
        type: 'MISSING_TRANSACTION',
        severity: 'HIGH',
        transactionId: DEBIT,
        description: `member ${DEBIT} (50.00) is not in the processor report`,
        expectedAmountMinor: '5000',
        observedAmountMinor: null,
      },
    ]);
    expect(result.memberMatches[1]).toEqual({
      memberId: `m-${DEBIT}`,
      matchState: 'MISSING',
      reportedAmountMinor: null,
    });
    expect(result).toMatchObject({ observedMemberCount: 2, observedMemberAmountMinor: 1470n });
  });

  it('EXTRA_TRANSACTION: a line for a transaction of the merchant that is not a member; HIGH when settled in another batch', () => {
    const extra = line({ transactionId: STRANGER, amountMinor: 900n });
    expect(
      differences([SALE_LINE, DEBIT_LINE, REFUND_LINE, extra], {
        facts: { others: { [STRANGER]: { merchantId: MERCHANT, batchId: null } } },
      }),
    ).toEqual([
      expect.objectContaining({ type: 'EXTRA_TRANSACTION', severity: 'MEDIUM', transactionId: STRANGER }),
    ]);
    expect(
      differences([SALE_LINE, DEBIT_LINE, REFUND_LINE, extra], {
        facts: { others: { [STRANGER]: { merchantId: MERCHANT, batchId: 'another-batch' } } },
      }),
    ).toEqual([
      expect.objectContaining({ type: 'EXTRA_TRANSACTION', severity: 'HIGH', observedAmountMinor: '900' }),
    ]);
  });

  it('UNMATCHED_PLATFORM: a line for no transaction of the merchant (unknown, or another merchant’s)', () => {
    const extra = line({ transactionId: STRANGER, amountMinor: 900n });
    expect(differences([SALE_LINE, DEBIT_LINE, REFUND_LINE, extra])).toEqual([
      expect.objectContaining({
        type: 'UNMATCHED_PLATFORM',
        severity: 'CRITICAL',
        key: `UNMATCHED_PLATFORM:${STRANGER}`,
      }),
    ]);
    expect(
      differences([SALE_LINE, DEBIT_LINE, REFUND_LINE, extra], {
        facts: { others: { [STRANGER]: { merchantId: OTHER_MERCHANT, batchId: null } } },
      }),
    ).toEqual([expect.objectContaining({ type: 'UNMATCHED_PLATFORM' })]);
  });

  it('DUPLICATE_TRANSACTION: two lines for one transaction (the member is MISMATCHED)', () => {
    const result = reconcileReport(
      batch(),
      cleanReport({ lines: [SALE_LINE, SALE_LINE, DEBIT_LINE, REFUND_LINE], totalAmountMinor: 8970n }),
      FACTS,
    );
    expect(result.differences).toEqual([
      expect.objectContaining({
        type: 'DUPLICATE_TRANSACTION',
        severity: 'HIGH',
        transactionId: SALE,
        observedAmountMinor: '5000',
      }),
    ]);
    expect(result.memberMatches[0].matchState).toBe('MISMATCHED');
  });

  it('AMOUNT_MISMATCH: a line without a breakdown with another amount', () =>
    expect(differences([line({ amountMinor: 2400n }), DEBIT_LINE, REFUND_LINE])).toEqual([
      expect.objectContaining({
        type: 'AMOUNT_MISMATCH',
        severity: 'MEDIUM',
        transactionId: SALE,
        expectedAmountMinor: '2500',
        observedAmountMinor: '2400',
      }),
    ]));

  it('BATCH_TOTAL_MISMATCH: a control total that is not the sum of the lines', () =>
    expect(differences([SALE_LINE, DEBIT_LINE, REFUND_LINE], { total: 6500n })).toEqual([
      expect.objectContaining({
        type: 'BATCH_TOTAL_MISMATCH',
        key: 'BATCH_TOTAL_MISMATCH',
        transactionId: null,
        severity: 'HIGH',
        expectedAmountMinor: '6470',
        observedAmountMinor: '6500',
      }),
    ]));

  it('FEE_MISMATCH: fees other than the fee profile gives', () =>
    expect(differences([SALE_LINE, DEBIT_LINE, REFUND_LINE], { fees: 120n })).toEqual([
      expect.objectContaining({
        type: 'FEE_MISMATCH',
        severity: 'LOW',
        expectedAmountMinor: '100',
        observedAmountMinor: '120',
      }),
    ]));

  it('a line with its surcharge breakdown as the programs priced it matches', () =>
    expect(
      differences([
        line({ surchargeMinor: 75n }),
        DEBIT_LINE,
        line({ transactionId: REFUND, amountMinor: -1030n, surchargeMinor: 30n }),
      ]),
    ).toEqual([]));

  it('ASSESSED_SURCHARGE_MISMATCH: a charge’s surcharge other than its program assessed (the captured part unchanged)', () =>
    expect(
      differences([line({ amountMinor: 2525n, surchargeMinor: 100n }), DEBIT_LINE, REFUND_LINE]),
    ).toEqual([
      expect.objectContaining({
        type: 'ASSESSED_SURCHARGE_MISMATCH',
        severity: 'MEDIUM',
        expectedAmountMinor: '75',
        observedAmountMinor: '100',
      }),
    ]));

  it('SURCHARGE_REVERSAL_MISMATCH: a refund reversing another share of the surcharge', () =>
    expect(
      differences([
        SALE_LINE,
        DEBIT_LINE,
        line({ transactionId: REFUND, amountMinor: -1000n, surchargeMinor: 0n }),
      ]),
    ).toEqual([
      expect.objectContaining({
        type: 'SURCHARGE_REVERSAL_MISMATCH',
        transactionId: REFUND,
        expectedAmountMinor: '-30',
        observedAmountMinor: '0',
      }),
    ]));

  it('CAPTURED_AMOUNT_MISMATCH: the amount without its surcharge differs from base + convenience fee', () =>
    expect(differences([line({ amountMinor: 2600n, surchargeMinor: 75n }), DEBIT_LINE, REFUND_LINE])).toEqual(
      [
        expect.objectContaining({
          type: 'CAPTURED_AMOUNT_MISMATCH',
          severity: 'HIGH',
          expectedAmountMinor: '2425',
          observedAmountMinor: '2525',
        }),
      ],
    ));

  it('every report-driven type has a rule here and every sweep type is left to the sweep', () => {
    const report = EXCEPTION_TYPES.filter((t) => EXCEPTION_RULES[t].source === 'report');
    const sweep = EXCEPTION_TYPES.filter((t) => EXCEPTION_RULES[t].source === 'sweep');
    expect(report.sort()).toEqual(
      [
        'AMOUNT_MISMATCH',
        'ASSESSED_SURCHARGE_MISMATCH',
        'BATCH_TOTAL_MISMATCH',
        'CAPTURED_AMOUNT_MISMATCH',
        'DUPLICATE_TRANSACTION',
        'EXTRA_TRANSACTION',
        'FEE_MISMATCH',
        'MISSING_TRANSACTION',
        'SURCHARGE_REVERSAL_MISMATCH',
        'UNMATCHED_PLATFORM',
      ].sort(),
    );
    expect(sweep.sort()).toEqual(['LATE_PRESENTMENT', 'MISSING_BATCH', 'UNSETTLED_TRANSACTION']);
    expect(EXCEPTION_RULES.LATE_PRESENTMENT.severity).toBeNull();
  });
});
