import {
  achClearingDeadline,
  achDueDate,
  achSubmissionDay,
  cardPresentmentDeadline,
  expectedByOf,
  gatewayBatchIdOf,
  isDueForSettlement,
  settlementDateOf,
  type SettlementSubject,
} from './settlement-rules';

// November 2026: Friday 20, weekend 21–22, Monday 23, Thanksgiving Thursday 26, Friday 27.
const card = (fields: Partial<SettlementSubject> = {}): SettlementSubject => ({
  rail: 'CARD',
  type: 'SALE',
  state: 'CAPTURED',
  effectiveDate: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  outcomePending: false,
  ...fields,
});
const ach = (fields: Partial<SettlementSubject> = {}): SettlementSubject => ({
  rail: 'ACH',
  type: 'ACH_DEBIT',
  state: 'SUBMITTED',
  effectiveDate: '2026-11-20',
  createdAt: '2026-11-20T10:00:00.000Z',
  outcomePending: false,
  ...fields,
});

describe('the settlement date of a run', () => {
  it('is the run’s UTC date on a banking day', () =>
    expect(settlementDateOf(new Date('2026-11-20T23:30:00.000Z'))).toBe('2026-11-20'));

  it('is the next banking day on a weekend or a Fed holiday', () => {
    expect(settlementDateOf(new Date('2026-11-21T12:00:00.000Z'))).toBe('2026-11-23');
    expect(settlementDateOf(new Date('2026-11-22T00:00:00.000Z'))).toBe('2026-11-23');
    expect(settlementDateOf(new Date('2026-11-26T18:00:00.000Z'))).toBe('2026-11-27');
  });

  it('expects the processor report by the end of the next banking day', () => {
    expect(expectedByOf('2026-11-20')).toBe('2026-11-23T23:59:59.999Z');
    expect(expectedByOf('2026-11-25')).toBe('2026-11-27T23:59:59.999Z');
  });
});

describe('which transactions a run settles', () => {
  it('takes captured card charges and captured card refunds', () => {
    expect(isDueForSettlement(card(), '2026-11-20')).toBe(true);
    expect(isDueForSettlement(card({ type: 'REFUND' }), '2026-11-20')).toBe(true);
    expect(isDueForSettlement(card({ type: 'PARTIAL_REFUND' }), '2026-11-20')).toBe(true);
  });

  it('leaves every other card state alone', () => {
    for (const state of ['INITIATED', 'AUTHORIZED', 'SETTLED', 'VOIDED', 'FAILED', 'REFUNDED'] as const) {
      expect(isDueForSettlement(card({ state }), '2026-11-20')).toBe(false);
    }
  });

  it('leaves a transaction whose gateway answer is pending, and types that move no money', () => {
    expect(isDueForSettlement(card({ outcomePending: true }), '2026-11-20')).toBe(false);
    expect(isDueForSettlement(card({ type: 'VOID' }), '2026-11-20')).toBe(false);
  });

  it('takes an ACH entry from the first banking day after its submission day, not before (ACH clears in 1 to 3 banking days)', () => {
    // Submitted Friday 20: due Monday 23.
    expect(achDueDate(ach())).toBe('2026-11-23');
    expect(isDueForSettlement(ach(), '2026-11-20')).toBe(false);
    expect(isDueForSettlement(ach(), '2026-11-23')).toBe(true);
    expect(isDueForSettlement(ach(), '2026-11-24')).toBe(true);
    expect(isDueForSettlement(ach({ state: 'SETTLED' }), '2026-11-23')).toBe(false);
    expect(isDueForSettlement(ach({ state: 'CAPTURED' }), '2026-11-23')).toBe(false);
  });

  it('leaves an entry submitted seconds before an end-of-day run SUBMITTED: same-day runs never settle ACH', () => {
    const monday = ach({ effectiveDate: '2026-11-23', createdAt: '2026-11-23T20:59:58.000Z' });
    expect(isDueForSettlement(monday, settlementDateOf(new Date('2026-11-23T21:00:00.000Z')))).toBe(false);
    expect(isDueForSettlement(monday, settlementDateOf(new Date('2026-11-24T21:00:00.000Z')))).toBe(true);
  });

  it('counts banking days on the Fed calendar: a Wednesday entry before Thanksgiving is due on Friday', () => {
    const wednesday = ach({ effectiveDate: '2026-11-25', createdAt: '2026-11-25T15:00:00.000Z' });
    expect(achDueDate(wednesday)).toBe('2026-11-27');
    expect(isDueForSettlement(wednesday, settlementDateOf(new Date('2026-11-26T18:00:00.000Z')))).toBe(true);
    expect(isDueForSettlement(wednesday, '2026-11-25')).toBe(false);
  });

  it('settles an entry submitted at the weekend on the second banking day after it', () => {
    // Saturday 21: its submission day is Monday 23, so it is due Tuesday 24.
    const weekend = ach({ effectiveDate: '2026-11-23', createdAt: '2026-11-21T09:00:00.000Z' });
    expect(isDueForSettlement(weekend, settlementDateOf(new Date('2026-11-21T23:00:00.000Z')))).toBe(false);
    expect(isDueForSettlement(weekend, settlementDateOf(new Date('2026-11-23T23:00:00.000Z')))).toBe(false);
    expect(isDueForSettlement(weekend, settlementDateOf(new Date('2026-11-24T23:00:00.000Z')))).toBe(true);
  });

  it('counts an entry without an effective date from its creation’s banking day', () => {
    expect(achSubmissionDay({ effectiveDate: null, createdAt: '2026-11-21T09:00:00.000Z' })).toBe(
      '2026-11-23',
    );
    expect(achDueDate({ effectiveDate: null, createdAt: '2026-11-21T09:00:00.000Z' })).toBe('2026-11-24');
    expect(
      isDueForSettlement(ach({ effectiveDate: null, createdAt: '2026-11-21T09:00:00.000Z' }), '2026-11-23'),
    ).toBe(false);
  });

  it('expects an entry cleared by the end of the third banking day after submission', () => {
    expect(achClearingDeadline(ach())).toBe('2026-11-25T23:59:59.999Z');
    // Wednesday 25: Thursday is Thanksgiving, so Friday 27, Monday 30, Tuesday December 1.
    expect(achClearingDeadline(ach({ effectiveDate: '2026-11-25' }))).toBe('2026-12-01T23:59:59.999Z');
  });

  it('takes ACH refunds and reversals like any entry', () => {
    expect(isDueForSettlement(ach({ type: 'ACH_REFUND' }), '2026-11-23')).toBe(true);
    expect(isDueForSettlement(ach({ type: 'ACH_REVERSAL' }), '2026-11-23')).toBe(true);
    expect(isDueForSettlement(ach({ type: 'ACH_REVERSAL' }), '2026-11-20')).toBe(false);
  });
});

describe('card presentment', () => {
  it('is due by the end of the banking day after the capture’s banking day', () => {
    expect(cardPresentmentDeadline({ createdAt: '2026-11-20T10:00:00.000Z' })).toBe(
      '2026-11-23T23:59:59.999Z',
    );
    expect(cardPresentmentDeadline({ createdAt: '2026-11-21T10:00:00.000Z' })).toBe(
      '2026-11-24T23:59:59.999Z',
    );
    expect(cardPresentmentDeadline({ createdAt: '2026-11-25T10:00:00.000Z' })).toBe(
      '2026-11-27T23:59:59.999Z',
    );
  });
});

describe('the gateway batch id', () => {
  it('is short, prefixed and derived from the batch id', () =>
    expect(gatewayBatchIdOf('0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11')).toBe('gw_0b6f3a528a0e4d3c'));
});
