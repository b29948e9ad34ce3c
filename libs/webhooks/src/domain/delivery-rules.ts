/**
 * The spec's delivery rules 1–7 as pure functions: how one attempt's answer is classified, when
 * the next attempt is due, and the delivery's state after it. The worker only measures and
 * records; every decision is here (docs/webhooks.md, "Retries").
 */
export const DELIVERY_STATES = ['PENDING', 'SUCCEEDED', 'FAILED', 'EXHAUSTED'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Rule 5: answered with one of these, a delivery fails at once and is never retried. */
export const NEVER_RETRIED_STATUS_CODES: readonly number[] = [400, 401, 404, 405, 410, 422];

/** Rule 6: a `Retry-After` above this is clamped to it. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/** How much of a receiver's answer body is read before the connection is closed. */
export const RESPONSE_BODY_LIMIT_BYTES = 64 * 1024;

/** Why an attempt got no HTTP answer (rule 4 retries every one of them). */
export const ATTEMPT_ERRORS = [
  'timeout',
  'connection_refused',
  'connection_reset',
  'dns_failure',
  'address_not_allowed',
  'tls_error',
  'network_error',
] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];

/** What one attempt produced: an HTTP answer (any status), or no answer at all. */
export type AttemptOutcome =
  | { kind: 'answer'; statusCode: number; retryAfter: string | null }
  | { kind: 'no_answer'; error: AttemptError };

export type AttemptVerdict = 'succeeded' | 'retry' | 'failed';

/**
 * Rules 1, 4 and 5: 2xx succeeds; 400, 401, 404, 405, 410 and 422 fail for good; everything else
 * is retried: other 4xx (403, 408, 429 …), every 3xx (redirects are not followed), 5xx, a status
 * outside 100–599, a timeout, a refused or broken connection, a DNS failure, and an address the
 * URL rules refuse at delivery time (a DNS answer that changed may change back).
 */
export function classifyAttempt(outcome: AttemptOutcome): AttemptVerdict {
  if (outcome.kind === 'no_answer') return 'retry';
  const status = outcome.statusCode;
  if (status >= 200 && status <= 299) return 'succeeded';
  if (NEVER_RETRIED_STATUS_CODES.includes(status)) return 'failed';
  return 'retry';
}

/**
 * Rule 6: the delay a `Retry-After` header asks for, in seconds, or null when it does not count.
 * Only delta-seconds count (`120`); the HTTP-date form and anything malformed are ignored, so the
 * schedule's step is used. Values above 24 hours are clamped to 24 hours.
 */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (!/^\d+$/.test(value)) return null;
  return Math.min(Number(value), MAX_RETRY_AFTER_SECONDS);
}

export interface NextStep {
  state: DeliveryState;
  /** When the next attempt is due (platform clock); null once the delivery is final. */
  nextAttemptAt: Date | null;
}

/**
 * Rules 3, 6 and 7: the delivery after its `attemptNumber`-th attempt (1-based, counted in the
 * current run: a replay starts a new run) made at `at`. `schedule[i]` is the delay in seconds
 * before attempt i + 1 (the first entry is before the first attempt), so the schedule's length is
 * the number of attempts. A retryable answer after the last attempt is EXHAUSTED; the attempt
 * count never grows, whatever `Retry-After` says.
 */
export function nextStep(
  schedule: readonly number[],
  attemptNumber: number,
  outcome: AttemptOutcome,
  at: Date,
): NextStep {
  const verdict = classifyAttempt(outcome);
  if (verdict === 'succeeded') return { state: 'SUCCEEDED', nextAttemptAt: null };
  if (verdict === 'failed') return { state: 'FAILED', nextAttemptAt: null };
  if (attemptNumber >= schedule.length) return { state: 'EXHAUSTED', nextAttemptAt: null };
  const requested = outcome.kind === 'answer' ? retryAfterSeconds(outcome.retryAfter) : null;
  const delaySeconds = requested ?? schedule[attemptNumber];
  return { state: 'PENDING', nextAttemptAt: new Date(at.getTime() + delaySeconds * 1000) };
}

/** When a new delivery (or a replay's new run) is first due: the schedule's first delay after `at`. */
export function firstAttemptAt(schedule: readonly number[], at: Date): Date {
  return new Date(at.getTime() + (schedule[0] ?? 0) * 1000);
}

/** A delivery whose last attempt ended without success counts towards suspension. */
export function endedWithoutSuccess(state: DeliveryState): boolean {
  return state === 'FAILED' || state === 'EXHAUSTED';
}
