/**
 * Value sets and the state machine of a hosted-payment-page session (stream `hpp_session-{id}`).
 *
 * Decisions (the spec names only PENDING; CONTRACT §8 fixes PENDING → COMPLETED | CANCELLED |
 * EXPIRED, and no other state):
 * 1. The card-testing defence locks a session after {@link HPP_MAX_FAILED_ATTEMPTS} failed
 *    attempts: it ends CANCELLED (the platform cancelled it), recorded as `HppSessionLocked` so the
 *    history says why, with `last_attempt` on the read form telling the partner the last failure,
 *    and the payer's page saying the page is locked.
 * 2. Every move is from PENDING only; COMPLETED, CANCELLED and EXPIRED are terminal. A
 *    move the table does not allow is 409 `invalid_state_transition`, so a double submit cannot
 *    complete twice and a completed session cannot be cancelled.
 * 3. A PENDING session whose `expires_at` has passed is treated as EXPIRED by every command
 *    (see `effectiveState`), even before the sweeper records HppSessionExpired.
 */
export const HPP_SESSION_STATES = ['PENDING', 'COMPLETED', 'CANCELLED', 'EXPIRED'] as const;
export type HppSessionState = (typeof HPP_SESSION_STATES)[number];

type Rule = { from: readonly HppSessionState[]; to: HppSessionState };

/** action → the states it is allowed from → where it goes (data, not code). */
export const HPP_SESSION_TRANSITIONS = {
  complete: { from: ['PENDING'], to: 'COMPLETED' },
  cancel: { from: ['PENDING'], to: 'CANCELLED' },
  expire: { from: ['PENDING'], to: 'EXPIRED' },
  /** A failed attempt below the limit keeps the session PENDING. */
  record_failed_attempt: { from: ['PENDING'], to: 'PENDING' },
  /** The failed attempt that reaches the limit: the platform cancels the session. */
  lock: { from: ['PENDING'], to: 'CANCELLED' },
  /** The payer's first submit opened the contract of the session's recurring plan. */
  link_contract: { from: ['PENDING'], to: 'PENDING' },
} as const satisfies Record<string, Rule>;

export type HppSessionAction = keyof typeof HPP_SESSION_TRANSITIONS;

export function canTransition(from: HppSessionState, action: HppSessionAction): boolean {
  return (HPP_SESSION_TRANSITIONS[action].from as readonly HppSessionState[]).includes(from);
}

/** Session lifetime when none is given: 30 minutes after create (CONTRACT §8). */
export const HPP_SESSION_TTL_MS = 30 * 60 * 1000;

/**
 * Failed attempts (declines, invalid card entries) a session tolerates: the 5th failure locks it.
 * Five lets a payer fix a typo a few times while stopping a card-testing script early.
 */
export const HPP_MAX_FAILED_ATTEMPTS = 5;

export const HPP_PAYMENT_METHODS = ['card', 'ach'] as const;
export type HppPaymentMethod = (typeof HPP_PAYMENT_METHODS)[number];

export const RENDERING_MODES = ['redirect', 'iframe'] as const;
export type RenderingMode = (typeof RENDERING_MODES)[number];

/** `sale` charges at once; `authorization` only holds (card only: ACH has no authorization). */
export const CAPTURE_MODES = ['sale', 'authorization'] as const;
export type CaptureMode = (typeof CAPTURE_MODES)[number];

export const AMOUNT_MODES = ['fixed', 'customer_entered'] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];

export const PAGE_PURPOSES = ['payment', 'save_payment_method'] as const;
export type PagePurpose = (typeof PAGE_PURPOSES)[number];

/** CONTRACT §8: the recurring frequencies, lower-case on an HPP `recurring_plan`. */
export const HPP_RECURRING_FREQUENCIES = [
  'daily',
  'weekly',
  'biweekly',
  'monthly',
  'quarterly',
  'annually',
] as const;
export type HppRecurringFrequency = (typeof HPP_RECURRING_FREQUENCIES)[number];

/**
 * `tokenization_outcome` on the read form: `not_requested` (the session saves nothing),
 * `pending` (it saves, and has not completed), `stored` (a vault entry was minted), `failed`
 * (a payment went through but the card could not be vaulted; see `token_capture_failure`).
 */
export const TOKENIZATION_OUTCOMES = ['not_requested', 'pending', 'stored', 'failed'] as const;
export type TokenizationOutcome = (typeof TOKENIZATION_OUTCOMES)[number];
