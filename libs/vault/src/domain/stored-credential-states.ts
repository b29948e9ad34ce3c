import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The stored-credential state machine, as data (CONTRACT §8: ACTIVE → REVOKED by DELETE).
 *
 * Decisions (copy to docs/vault.md):
 * 1. A credential is born ACTIVE (minted by a completed HPP save-card session); there is no
 *    other way in.
 * 2. `revoke` is allowed only from ACTIVE. Revoking an already REVOKED credential is 409
 *    `invalid_state_transition` (CONTRACT §7: "a state the operation does not allow"), not a
 *    silent success: a retried DELETE is answered by its Idempotency-Key replay, so only a new,
 *    distinct request reaches this rule, and it is told the truth. REVOKED is terminal.
 * 3. A revoked credential still reads (GET) and keeps its stream for the audit; it cannot be
 *    charged (422 `stored_credential_not_chargeable`, `retryable: false`).
 * 4. Charging is not a transition (the credential does not change); it is gated by
 *    {@link CHARGEABLE_STATES} and `assertChargeable`.
 */
export const STORED_CREDENTIAL_STATES = ['ACTIVE', 'REVOKED'] as const;
export type StoredCredentialState = (typeof STORED_CREDENTIAL_STATES)[number];

type Rule = { from: readonly StoredCredentialState[]; to: StoredCredentialState };

/** action → the states it is allowed from → where it goes. */
export const STORED_CREDENTIAL_TRANSITIONS = {
  revoke: { from: ['ACTIVE'], to: 'REVOKED' },
} as const satisfies Record<string, Rule>;

export type StoredCredentialAction = keyof typeof STORED_CREDENTIAL_TRANSITIONS;

/** The states a charge may be made from. */
export const CHARGEABLE_STATES: readonly StoredCredentialState[] = ['ACTIVE'];

export function canTransition(from: StoredCredentialState, action: StoredCredentialAction): boolean {
  return (STORED_CREDENTIAL_TRANSITIONS[action].from as readonly StoredCredentialState[]).includes(from);
}

/** The target state, or 409 `invalid_state_transition`. */
export function transition(
  from: StoredCredentialState,
  action: StoredCredentialAction,
): StoredCredentialState {
  if (!canTransition(from, action)) throw new InvalidStateTransition('stored_credential', from, action);
  return STORED_CREDENTIAL_TRANSITIONS[action].to;
}

/**
 * The spec's `use_type` values (Transaction resource; HPP `credential_usages`, and the stored
 * credential's `scope`, are arrays of them).
 */
export const USE_TYPES = ['ONE_TIME_FUTURE', 'RECURRING', 'INSTALLMENT', 'UNSCHEDULED_COF'] as const;
export type UseType = (typeof USE_TYPES)[number];

export const isUseType = (value: unknown): value is UseType =>
  typeof value === 'string' && (USE_TYPES as readonly string[]).includes(value);

export const PAYMENT_METHOD_TYPES = ['card', 'ach'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

export const CONSENT_CHANNELS = ['hpp', 'api'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** The longest revocation reason accepted (spec: DELETE reason at most 500 characters). */
export const MAX_REVOCATION_REASON_LENGTH = 500;
