import { addDays } from './contract-calendar';

/**
 * Retries of a failed installment ("dunning"; docs/recurring.md "Retries"), as data.
 *
 * - A soft decline (the payer may have the money tomorrow: `insufficient_funds`) and an ACH
 *   return for insufficient or uncollected funds (R01, R09: the two NACHA lets an originator
 *   present again) are retried, up to the contract's `max_retries` times.
 * - Every other decline (`card_declined`, `expired_card`, an invalid card or account) and every
 *   other return code (R02 account closed, R03 no account, R10 not authorised, ...) is hard: the
 *   contract is FAILED at once, as it is when the retries run out.
 * - Retry `r` (1, 2, ...) is due {@link RETRY_BACKOFF_DAYS}[r − 1] days after the failure (the
 *   last value for every later retry): 1, 3, then 7 days, so a payer paid on a weekly or monthly
 *   cycle is tried again across a payday.
 */
export const SOFT_DECLINE_CODES: readonly string[] = ['insufficient_funds'];
export const RETRYABLE_RETURN_CODES: readonly string[] = ['R01', 'R09'];
export const RETRY_BACKOFF_DAYS: readonly number[] = [1, 3, 7];
export const DEFAULT_MAX_RETRIES = 3;
export const MAX_MAX_RETRIES = 10;

export function isSoftDecline(declineCode: string): boolean {
  return SOFT_DECLINE_CODES.includes(declineCode);
}

export function isRetryableReturn(returnCode: string): boolean {
  return RETRYABLE_RETURN_CODES.includes(returnCode);
}

/** The date retry number `retry` (1-based) falls due, after a failure on `failedOn`. */
export function retryDate(failedOn: string, retry: number): string {
  const days = RETRY_BACKOFF_DAYS[Math.min(retry, RETRY_BACKOFF_DAYS.length) - 1];
  return addDays(failedOn, days);
}
