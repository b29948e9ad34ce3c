/**
 * The partner's AVS decline policy (partner configuration `avs_decline_policy`), applied to
 * cardholder-initiated charges (ONE_TIME_FUTURE) only: merchant-initiated ones are billed as given
 * (spec, Transactions rule 3). AVS letters (Visa/Mastercard): Y, X full match; A, W, Z, P, B
 * partial (address or postal code only); N no match; U, R, S, G, E unavailable or not checked.
 *
 * - NEVER_DECLINE: the answer is recorded, nothing else.
 * - DECLINE_ON_NO_MATCH: N declines.
 * - DECLINE_ON_PARTIAL_MATCH: N and every partial match decline.
 * An unavailable answer never declines: the payer cannot fix what the issuer could not check.
 */
const NO_MATCH = new Set(['N']);
const PARTIAL_MATCH = new Set(['A', 'W', 'Z', 'P', 'B']);

export const AVS_DECLINE_CODE = 'avs_mismatch';

export function avsPolicyDeclines(policy: string, avsResponseCode: string | null): boolean {
  if (!avsResponseCode) return false;
  if (policy === 'DECLINE_ON_NO_MATCH') return NO_MATCH.has(avsResponseCode);
  if (policy === 'DECLINE_ON_PARTIAL_MATCH') {
    return NO_MATCH.has(avsResponseCode) || PARTIAL_MATCH.has(avsResponseCode);
  }
  return false;
}

/** Payer-safe wording of the decline codes (the `decline_reason` field). */
export const DECLINE_REASONS: Readonly<Record<string, string>> = {
  insufficient_funds: 'The card has insufficient funds.',
  card_declined: 'The card was declined by the issuer.',
  expired_card: 'The card has expired.',
  invalid_card_number: 'The card number is not valid.',
  invalid_expiry_date: 'The expiry date is not valid.',
  invalid_routing_number: 'The routing number is not valid.',
  invalid_account_number: 'The account number is not valid.',
  invalid_amount: 'The amount is not valid.',
  currency_not_supported: 'The currency is not supported.',
  avs_mismatch: 'The billing address did not match the card issuer’s records.',
};

/**
 * The sandbox answers an ACH debit with the card table's codes (CONTRACT §5 names no rail); the
 * payer reads about their bank account, not a card.
 */
const ACH_DECLINE_REASONS: Readonly<Record<string, string>> = {
  insufficient_funds: 'The bank account has insufficient funds.',
  card_declined: 'The bank declined the debit.',
  expired_card: 'The bank account cannot be debited.',
};

export function declineReasonOf(code: string, rail: 'CARD' | 'ACH' = 'CARD'): string {
  return (
    (rail === 'ACH' ? ACH_DECLINE_REASONS[code] : undefined) ??
    DECLINE_REASONS[code] ??
    'The payment was declined.'
  );
}
