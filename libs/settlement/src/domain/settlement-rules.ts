import {
  addBankingDays,
  nextBankingDayOnOrAfter,
  type IsoDate,
  type Transaction,
  type Rail,
  type TransactionState,
  type TransactionType,
} from '../../../transactions/src/domain';

/**
 * The rules of the end-of-day settlement run (docs/settlement.md), pure.
 *
 * 1. What settles: a CARD transaction in CAPTURED and an ACH entry in SUBMITTED that is due.
 *    Those are the states the transaction machine moves to SETTLED (`settle`, `settle_ach`).
 * 2. The run's settlement date is its banking date: the run's UTC date when that is a banking
 *    day, otherwise the next banking day (a Saturday run settles on Monday).
 * 3. An ACH entry is due when its effective date (set at submission to the submission's banking
 *    day: same-day ACH) is on or before the run's settlement date: it settles at the end of its
 *    effective banking day. An entry submitted on a weekend or holiday is effective, and so due,
 *    on the next banking day. An entry without an effective date (recorded before the field
 *    existed) counts from the banking day on or after its creation date.
 * 4. Amounts are the money moving to the merchant, signed: what the payer was charged (base +
 *    surcharge + convenience fee) is positive for a charge (SALE, a captured AUTHORIZATION,
 *    ACH_DEBIT) and negative for money going back (REFUND, PARTIAL_REFUND, ACH_REFUND,
 *    ACH_REVERSAL: base + the surcharge share refunded). Gross: fees come with the processor's
 *    report. A type without a direction here does not settle in a run.
 * 5. The processor's report is expected by the end (23:59:59.999 UTC) of the banking day after
 *    the settlement date.
 */

/** The state a transaction of each rail settles from. */
export const SETTLEABLE_STATE: Readonly<Record<Rail, TransactionState>> = {
  CARD: 'CAPTURED',
  ACH: 'SUBMITTED',
};

/** +1: money to the merchant; -1: money back from the merchant (rule 4). */
export const SETTLEMENT_DIRECTION: Readonly<Partial<Record<TransactionType, 1 | -1>>> = {
  SALE: 1,
  AUTHORIZATION: 1,
  ACH_DEBIT: 1,
  REFUND: -1,
  PARTIAL_REFUND: -1,
  ACH_REFUND: -1,
  ACH_REVERSAL: -1,
};

/** Banking days after the settlement date by whose end the processor's report is expected. */
export const PROCESSOR_REPORT_BANKING_DAYS = 1;

const utcDateOf = (at: Date): IsoDate => at.toISOString().slice(0, 10);

/** Rule 2: the run's banking date. */
export function settlementDateOf(runAt: Date): IsoDate {
  return nextBankingDayOnOrAfter(utcDateOf(runAt));
}

/** Rule 5: the end of the banking day after the settlement date, as an ISO timestamp. */
export function expectedByOf(settlementDate: IsoDate): string {
  return `${addBankingDays(settlementDate, PROCESSOR_REPORT_BANKING_DAYS)}T23:59:59.999Z`;
}

export type SettlementSubject = Pick<
  Transaction,
  'rail' | 'type' | 'state' | 'effectiveDate' | 'createdAt' | 'outcomePending'
>;

/** Rule 3: the banking date an ACH entry settles on (its effective date). */
export function achDueDate(t: Pick<Transaction, 'effectiveDate' | 'createdAt'>): IsoDate {
  return t.effectiveDate ?? nextBankingDayOnOrAfter(t.createdAt.slice(0, 10));
}

/** Rules 1, 3 and 4: whether a run settling on `settlementDate` takes the transaction. */
export function isDueForSettlement(t: SettlementSubject, settlementDate: IsoDate): boolean {
  if (t.outcomePending || SETTLEMENT_DIRECTION[t.type] === undefined) return false;
  if (t.state !== SETTLEABLE_STATE[t.rail]) return false;
  return t.rail === 'CARD' || achDueDate(t) <= settlementDate;
}

/** The gateway's short id of a batch (`gw_` + 16 hex digits of the batch id). */
export function gatewayBatchIdOf(batchId: string): string {
  return `gw_${batchId.replace(/-/g, '').slice(0, 16)}`;
}
