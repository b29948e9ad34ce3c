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
 * 3. ACH clears in 1 to 3 banking days (spec: Limits, and the transaction state table's
 *    SUBMITTED → SETTLED row). An entry's submission day is the banking day on or after the day
 *    the gateway accepted it (recorded at submission as `effectiveDate`; an entry recorded
 *    without one counts from its creation date). It is due on the first banking day after its
 *    submission day: a run whose settlement date is on or after that day settles it, an earlier
 *    run leaves it SUBMITTED. It must have cleared by the end of the third banking day after its
 *    submission day; still SUBMITTED then, it is an UNSETTLED_TRANSACTION (docs/reconciliation.md).
 * 4. Amounts are the money moving to the merchant, signed: what the payer was charged (base +
 *    surcharge + convenience fee) is positive for a charge (SALE, a captured AUTHORIZATION,
 *    ACH_DEBIT) and negative for money going back (REFUND, PARTIAL_REFUND, ACH_REFUND,
 *    ACH_REVERSAL: base + the surcharge share refunded). Gross: fees come with the processor's
 *    report. A type without a direction here does not settle in a run.
 * 5. The processor's report is expected by the end (23:59:59.999 UTC) of the banking day after
 *    the settlement date.
 * 6. A captured card transaction is presented (settled in a batch) by the end of the banking day
 *    after its capture's banking day; still CAPTURED then, it is a LATE_PRESENTMENT.
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

/** The last instant (23:59:59.999 UTC) of a date. */
const endOfDay = (date: IsoDate): string => `${date}T23:59:59.999Z`;

/** Rule 5: the end of the banking day after the settlement date, as an ISO timestamp. */
export function expectedByOf(settlementDate: IsoDate): string {
  return endOfDay(addBankingDays(settlementDate, PROCESSOR_REPORT_BANKING_DAYS));
}

export type SettlementSubject = Pick<
  Transaction,
  'rail' | 'type' | 'state' | 'effectiveDate' | 'createdAt' | 'outcomePending'
>;

/** Rule 3: ACH clears at the earliest and at the latest this many banking days after submission. */
export const ACH_CLEARING_BANKING_DAYS = { earliest: 1, latest: 3 } as const;

/** Rule 6: banking days after its capture's banking day by whose end a card capture is presented. */
export const CARD_PRESENTMENT_BANKING_DAYS = 1;

type AchDates = Pick<Transaction, 'effectiveDate' | 'createdAt'>;

/** Rule 3: the banking day an ACH entry was submitted on. */
export function achSubmissionDay(t: AchDates): IsoDate {
  return t.effectiveDate ?? nextBankingDayOnOrAfter(t.createdAt.slice(0, 10));
}

/** Rule 3: the first banking date a run may settle an ACH entry on. */
export function achDueDate(t: AchDates): IsoDate {
  return addBankingDays(achSubmissionDay(t), ACH_CLEARING_BANKING_DAYS.earliest);
}

/** Rule 3: the instant by which a submitted ACH entry must have cleared (end of its last day). */
export function achClearingDeadline(t: AchDates): string {
  return endOfDay(addBankingDays(achSubmissionDay(t), ACH_CLEARING_BANKING_DAYS.latest));
}

/** Rule 6: the instant by which a card capture must have been presented for settlement. */
export function cardPresentmentDeadline(t: Pick<Transaction, 'createdAt'>): string {
  const captureDay = nextBankingDayOnOrAfter(t.createdAt.slice(0, 10));
  return endOfDay(addBankingDays(captureDay, CARD_PRESENTMENT_BANKING_DAYS));
}

/** Rules 1, 3 and 4: whether a run settling on `settlementDate` takes the transaction. */
export function isDueForSettlement(t: SettlementSubject, settlementDate: IsoDate): boolean {
  if (t.outcomePending || SETTLEMENT_DIRECTION[t.type] === undefined) return false;
  if (t.state !== SETTLEABLE_STATE[t.rail]) return false;
  return t.rail === 'CARD' || achDueDate(t) <= settlementDate;
}

const shortIdOf = (prefix: string, batchId: string): string =>
  `${prefix}_${batchId.replace(/-/g, '').slice(0, 16)}`;

/** The gateway's short id of a batch (`gw_` + 16 hex digits of the batch id). */
export function gatewayBatchIdOf(batchId: string): string {
  return shortIdOf('gw', batchId);
}

/**
 * The id a batch is closed under once final (`csb_` + 16 hex digits of the batch id): the
 * reference of its payout, which the ledger's payout entry carries.
 */
export function closedSettlementBatchIdOf(batchId: string): string {
  return shortIdOf('csb', batchId);
}
