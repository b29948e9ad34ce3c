import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The recurring contract's state machine, as data (CONTRACT §8; docs/recurring.md "States").
 *
 * Decisions:
 * 1. A contract created on an existing `payment_method_token` is born ACTIVE and charges on its
 *    `start_date` (CONTRACT §8). A hosted page's plan is born PENDING_ACTIVATION when its payer
 *    first submits the page, and `activate` makes it ACTIVE when the page's first payment is
 *    approved; one the page never pays for is cancelled by the scheduler at the session's
 *    `expires_at` (`expire_activation`).
 * 2. ACTIVE ⇄ PAUSED by `pause` and `resume` (the partner's, with an optional reason), or by the
 *    platform's `hold` and `release` while the merchant cannot transact or a feature flag the
 *    contract needs is off (the reason is recorded either way).
 * 3. COMPLETED, CANCELLED and FAILED are terminal: `complete` when nothing is left to charge,
 *    `fail` on a hard decline or retries exhausted, `cancel` by the partner at any time before
 *    the contract ends.
 * 4. Charging is an `attempt` (ACTIVE only) followed by `record_outcome`. An attempt that was in
 *    flight when the contract was paused or cancelled still has its outcome recorded (the charge
 *    stands, or never happened), so the counters always agree with the transactions. A returned
 *    ACH installment is recorded in whatever state the contract has reached (`record_return`).
 * 5. `update` (PATCH of `next_charge_date`, `end_date`, `reason`) while ACTIVE or PAUSED.
 */
export const CONTRACT_STATES = [
  'PENDING_ACTIVATION',
  'ACTIVE',
  'PAUSED',
  'COMPLETED',
  'CANCELLED',
  'FAILED',
] as const;
export type ContractState = (typeof CONTRACT_STATES)[number];

type Rule = { from: readonly ContractState[]; to: ContractState | 'UNCHANGED' };

/** action → the states it is allowed from → where it goes. */
export const CONTRACT_TRANSITIONS = {
  activate: { from: ['PENDING_ACTIVATION'], to: 'ACTIVE' },
  expire_activation: { from: ['PENDING_ACTIVATION'], to: 'CANCELLED' },
  pause: { from: ['ACTIVE'], to: 'PAUSED' },
  resume: { from: ['PAUSED'], to: 'ACTIVE' },
  hold: { from: ['ACTIVE'], to: 'PAUSED' },
  release: { from: ['PAUSED'], to: 'ACTIVE' },
  cancel: { from: ['PENDING_ACTIVATION', 'ACTIVE', 'PAUSED'], to: 'CANCELLED' },
  update: { from: ['ACTIVE', 'PAUSED'], to: 'UNCHANGED' },
  attempt: { from: ['ACTIVE'], to: 'UNCHANGED' },
  record_outcome: { from: ['ACTIVE', 'PAUSED', 'CANCELLED'], to: 'UNCHANGED' },
  record_return: { from: ['ACTIVE', 'PAUSED', 'COMPLETED', 'CANCELLED', 'FAILED'], to: 'UNCHANGED' },
  complete: { from: ['ACTIVE'], to: 'COMPLETED' },
  fail: { from: ['ACTIVE', 'PAUSED'], to: 'FAILED' },
} as const satisfies Record<string, Rule>;

export type ContractAction = keyof typeof CONTRACT_TRANSITIONS;
export const CONTRACT_ACTIONS = Object.keys(CONTRACT_TRANSITIONS) as ContractAction[];

export function canTransition(from: ContractState, action: ContractAction): boolean {
  return (CONTRACT_TRANSITIONS[action].from as readonly ContractState[]).includes(from);
}

/** The state after `action`, or 409 `invalid_state_transition`. */
export function transition(from: ContractState, action: ContractAction): ContractState {
  if (!canTransition(from, action)) throw new InvalidStateTransition('contract', from, action);
  const to = CONTRACT_TRANSITIONS[action].to;
  return to === 'UNCHANGED' ? from : to;
}

/** The states in which a contract no longer bills. */
export const ENDED_STATES: readonly ContractState[] = ['COMPLETED', 'CANCELLED', 'FAILED'];
