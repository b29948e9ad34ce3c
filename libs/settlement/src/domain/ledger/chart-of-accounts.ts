/**
 * The chart of accounts of the double-entry ledger (docs/ledger.md): the platform's books, kept
 * per merchant and per currency. Every money movement posts one balanced journal entry to these
 * accounts. Amounts are signed integer minor units: a debit is positive, a credit negative, so the
 * lines of an entry sum to zero and an account's balance is the sum of its lines.
 *
 * Why these accounts: the platform sits between the payer's networks (card schemes, the ACH
 * operator) and the merchant. What it is owed moves from "captured, not settled"
 * (`processor_receivable`) to "settled, held for the merchant" (`settlement_clearing`) to "paid
 * out"; what it owes the merchant is split by what it is (the price, the surcharge, the
 * convenience fee) because the networks audit surcharges apart; what the merchant owes back
 * (lost chargebacks, returned entries) is a receivable, not a negative payable, so it is seen.
 */
export const LEDGER_ACCOUNTS = {
  processor_receivable: {
    kind: 'asset',
    meaning:
      'captured card charges and submitted ACH entries not yet settled in a batch: what the networks owe for the merchant (refunds not yet settled count against it)',
  },
  settlement_clearing: {
    kind: 'asset',
    meaning:
      'money settled in the merchant’s batches and held in the platform’s settlement account until the batch is paid out (less what disputes and returns took back)',
  },
  chargebacks: {
    kind: 'asset',
    meaning: 'money the card network withdrew for an open dispute, until it is decided',
  },
  merchant_receivable: {
    kind: 'asset',
    meaning:
      'what the merchant owes the platform: lost chargebacks and ACH entries returned after settlement',
  },
  platform_cash: {
    kind: 'asset',
    meaning: 'the platform’s own account: the merchant’s fees, swept from the settlement account at payout',
  },
  merchant_payable: {
    kind: 'liability',
    meaning:
      'the price of the merchant’s sales (less refunds and fees) the platform owes the merchant until payout',
  },
  surcharge_payable: {
    kind: 'liability',
    meaning: 'surcharges collected for the merchant (less the shares refunds reversed), owed until payout',
  },
  convenience_fee_payable: {
    kind: 'liability',
    meaning: 'convenience fees collected for the merchant, owed until payout',
  },
  fees_revenue: {
    kind: 'revenue',
    meaning: 'the merchant’s processing fees (the processor report’s fees, from its fee profile)',
  },
} as const;

export type LedgerAccount = keyof typeof LEDGER_ACCOUNTS;
export const LEDGER_ACCOUNT_NAMES = Object.keys(LEDGER_ACCOUNTS) as LedgerAccount[];

/** What an entry records (docs/ledger.md lists the lines of each). */
export const POSTING_KINDS = [
  'capture',
  'refund',
  'void',
  'settlement',
  'ach_return_unsettled',
  'ach_return_settled',
  'chargeback_opened',
  'chargeback_won',
  'chargeback_lost',
  'fees',
  'payout',
] as const;
export type PostingKind = (typeof POSTING_KINDS)[number];
