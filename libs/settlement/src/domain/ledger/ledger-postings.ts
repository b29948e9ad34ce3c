import { subtractMinor, sumMinor } from '../../../../platform/src/money/money';
import { totalMinor, type Transaction, type TransactionEvent } from '../../../../transactions/src/domain';
import type { SettlementBatchEvent } from '../settlement-batch-events';
import { SETTLEMENT_DIRECTION } from '../settlement-rules';
import type { LedgerAccount, PostingKind } from './chart-of-accounts';

/**
 * The journal entries money movements post (docs/ledger.md, "Postings"), pure: one entry per
 * event that moves money, in integer minor units, its lines summing to zero.
 */
export interface PostingLine {
  account: LedgerAccount;
  /** Debit positive, credit negative. */
  amountMinor: bigint;
}

export interface Posting {
  kind: PostingKind;
  currency: string;
  transactionId: string | null;
  batchId: string | null;
  description: string;
  lines: PostingLine[];
}

/** The types whose approval captures money from the payer. */
const CAPTURES = new Set(['SALE', 'ACH_DEBIT']);
/** The follow-up types whose approval sends money back to the payer. */
const MONEY_BACK = new Set(['REFUND', 'PARTIAL_REFUND', 'ACH_REFUND', 'ACH_REVERSAL']);
/** The states of a capture not yet settled. */
const UNSETTLED = new Set(['CAPTURED', 'SUBMITTED']);

/** An entry, its zero lines dropped; null when nothing is left (a zero amount moves nothing). */
function entry(
  kind: PostingKind,
  t: { currency: string },
  refs: { transactionId?: string | null; batchId?: string | null },
  description: string,
  lines: PostingLine[],
): Posting | null {
  const kept = lines.filter((l) => l.amountMinor !== 0n);
  if (kept.length === 0) return null;
  return {
    kind,
    currency: t.currency,
    transactionId: refs.transactionId ?? null,
    batchId: refs.batchId ?? null,
    description,
    lines: kept,
  };
}

const parts = (t: Transaction) => ({
  base: BigInt(t.amountMinor),
  surcharge: BigInt(t.surchargeMinor),
  fee: BigInt(t.convenienceFeeMinor),
  gross: totalMinor(t),
});

/** The payer's money captured: the networks owe it, the platform owes it on to the merchant. */
function capture(t: Transaction): Posting | null {
  const p = parts(t);
  return entry('capture', t, { transactionId: t.id }, `${t.type} ${t.id} captured`, [
    { account: 'processor_receivable', amountMinor: p.gross },
    { account: 'merchant_payable', amountMinor: -p.base },
    { account: 'surcharge_payable', amountMinor: -p.surcharge },
    { account: 'convenience_fee_payable', amountMinor: -p.fee },
  ]);
}

/** The capture undone before it settled (a void, an ACH entry returned while submitted). */
function uncapture(kind: 'void' | 'ach_return_unsettled', t: Transaction, why: string): Posting | null {
  const p = parts(t);
  return entry(kind, t, { transactionId: t.id }, `${t.type} ${t.id} ${why}`, [
    { account: 'merchant_payable', amountMinor: p.base },
    { account: 'surcharge_payable', amountMinor: p.surcharge },
    { account: 'convenience_fee_payable', amountMinor: p.fee },
    { account: 'processor_receivable', amountMinor: -p.gross },
  ]);
}

/** Money sent back to the payer (a refund, an ACH refund or reversal): its base and surcharge share. */
function moneyBack(t: Transaction): Posting | null {
  const p = parts(t);
  return entry(
    'refund',
    t,
    { transactionId: t.id },
    `${t.type} ${t.id} of ${t.parentTransactionId} approved`,
    [
      { account: 'merchant_payable', amountMinor: p.base },
      { account: 'surcharge_payable', amountMinor: p.surcharge },
      { account: 'convenience_fee_payable', amountMinor: p.fee },
      { account: 'processor_receivable', amountMinor: -p.gross },
    ],
  );
}

/**
 * The entry a transaction event posts, from the transaction before and after it (the aggregate's
 * own `evolve`); null for an event that moves no money.
 */
export function transactionPosting(
  event: TransactionEvent,
  before: Transaction | null,
  after: Transaction,
): Posting | null {
  const gross = totalMinor(after);
  const ref = { transactionId: after.id };
  switch (event.type) {
    case 'TransactionApproved':
      if (CAPTURES.has(after.type) && UNSETTLED.has(after.state)) return capture(after);
      if (MONEY_BACK.has(after.type)) return moneyBack(after);
      return null;
    case 'TransactionVoided':
      return before && UNSETTLED.has(before.state) ? uncapture('void', before, 'voided') : null;
    case 'TransactionSettled': {
      const signed = BigInt(SETTLEMENT_DIRECTION[after.type] ?? 1) * gross;
      return entry(
        'settlement',
        after,
        { ...ref, batchId: event.data.batchId },
        `${after.type} ${after.id} settled`,
        [
          { account: 'settlement_clearing', amountMinor: signed },
          { account: 'processor_receivable', amountMinor: -signed },
        ],
      );
    }
    case 'TransactionReturned':
      if (before?.state === 'SUBMITTED')
        return uncapture('ach_return_unsettled', before, `returned ${event.data.returnCode}`);
      return entry(
        'ach_return_settled',
        after,
        { ...ref, batchId: after.batchId },
        `${after.id} returned ${event.data.returnCode} after settlement`,
        [
          { account: 'merchant_receivable', amountMinor: gross },
          { account: 'settlement_clearing', amountMinor: -gross },
        ],
      );
    case 'TransactionDisputed':
      return entry(
        'chargeback_opened',
        after,
        { ...ref, batchId: after.batchId },
        `dispute ${event.data.disputeId} on ${after.id}`,
        [
          { account: 'chargebacks', amountMinor: gross },
          { account: 'settlement_clearing', amountMinor: -gross },
        ],
      );
    case 'ChargebackResolved':
      return event.data.outcome === 'won'
        ? entry(
            'chargeback_won',
            after,
            { ...ref, batchId: after.batchId },
            `dispute ${event.data.disputeId} won`,
            [
              { account: 'settlement_clearing', amountMinor: gross },
              { account: 'chargebacks', amountMinor: -gross },
            ],
          )
        : entry(
            'chargeback_lost',
            after,
            { ...ref, batchId: after.batchId },
            `dispute ${event.data.disputeId} lost`,
            [
              { account: 'merchant_receivable', amountMinor: gross },
              { account: 'chargebacks', amountMinor: -gross },
            ],
          );
    default:
      return null;
  }
}

/** What the ledger keeps of a batch to post its fees and its payout. */
export interface LedgerBatch {
  batchId: string;
  currency: string;
  /** The batch's total (signed, as money to the merchant). */
  totalMinor: bigint;
  /** Its members' surcharges and convenience fees, signed the same way. */
  surchargeMinor: bigint;
  convenienceFeeMinor: bigint;
  /** The fees already posted for it (the last report's). */
  feesPostedMinor: bigint;
}

/** A member's share of the payables, signed as money to the merchant. */
export function memberShares(t: Transaction): { surchargeMinor: bigint; convenienceFeeMinor: bigint } {
  const sign = BigInt(SETTLEMENT_DIRECTION[t.type] ?? 1);
  return {
    surchargeMinor: sign * BigInt(t.surchargeMinor),
    convenienceFeeMinor: sign * BigInt(t.convenienceFeeMinor),
  };
}

/**
 * The entry a batch event posts: the fees a report sets (the difference to what an earlier
 * report set), and the payout when the batch is final: the settlement account pays the merchant
 * the batch's total less its fees, which go to the platform.
 */
export function batchPosting(event: SettlementBatchEvent, batch: LedgerBatch): Posting | null {
  const ref = { batchId: batch.batchId };
  switch (event.type) {
    case 'SettlementReportIngested': {
      const delta = subtractMinor(BigInt(event.data.feesMinor), batch.feesPostedMinor, batch.currency);
      return entry(
        'fees',
        batch,
        ref,
        `fees of batch ${batch.batchId} per processor report ${event.data.reportId}`,
        [
          { account: 'merchant_payable', amountMinor: delta },
          { account: 'fees_revenue', amountMinor: -delta },
        ],
      );
    }
    case 'SettlementBatchReconciled':
    case 'SettlementBatchClosedWithExceptions': {
      const fees = batch.feesPostedMinor;
      const price = subtractMinor(
        batch.totalMinor,
        sumMinor([fees, batch.surchargeMinor, batch.convenienceFeeMinor], batch.currency),
        batch.currency,
      );
      return entry(
        'payout',
        batch,
        ref,
        `payout of batch ${batch.batchId} (${event.data.closedSettlementBatchId})`,
        [
          { account: 'merchant_payable', amountMinor: price },
          { account: 'surcharge_payable', amountMinor: batch.surchargeMinor },
          { account: 'convenience_fee_payable', amountMinor: batch.convenienceFeeMinor },
          { account: 'platform_cash', amountMinor: fees },
          { account: 'settlement_clearing', amountMinor: -batch.totalMinor },
        ],
      );
    }
    default:
      return null;
  }
}

/** Σ lines: zero for a balanced entry. */
export function postingBalance(posting: Posting): bigint {
  return sumMinor(
    posting.lines.map((l) => l.amountMinor),
    posting.currency,
  );
}
