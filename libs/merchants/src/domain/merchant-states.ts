import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The merchant state machine, as data.
 *
 * The spec's table (States and transitions / Merchant) and CONTRACT §2/§8 fix most moves. The
 * moves it leaves open are decided here (copy this block to docs/merchants.md):
 *
 * 1. Back into review.
 *    - `respond_clarification`: AWAITING_CLARIFICATION → REVIEWING, whichever state the request
 *      came from (REVIEWING or UNDERWRITING). The partner may have edited the application while
 *      AWAITING_CLARIFICATION, so it goes through pre-check again; a new signature envelope is
 *      sent on `approve_precheck` (its reissue_count starts at 0 again). The answer is recorded
 *      in the event (`response`); `clarification_message` is cleared (it describes an open request).
 *    - `resubmit`: REJECTED → REVIEWING (not SUBMITTED: the operator already holds the file).
 *      Allowed only while resubmission_count < resubmission_limit (default 3), else 422
 *      `resubmission_limit_reached`; resubmission_count increments; rejection_reason_code and
 *      rejection_reason are cleared (they stay in the stream). submitted_at keeps the first
 *      submission.
 * 2. Into AWAITING_CLARIFICATION: `request_clarification` (operator) from REVIEWING or
 *    UNDERWRITING only, with a non-blank `clarification_message` (422
 *    `clarification_message_required`). Not from AWAITING_MERCHANT_SIGNATURE (the signer is
 *    the one acting; decline the envelope instead) nor after APPROVED.
 * 3. In and out of SUSPENDED.
 *    - `suspend` (operator): from every state except DRAFT (nothing to restrict; close it
 *      instead), SUSPENDED and CLOSED. The state it left is remembered (`suspendedFrom`);
 *      `restriction_reason` is the command's `reason`. A suspended merchant accepts no other
 *      move than `reactivate` and `close` (no PATCH, no envelope resend, no provisioning).
 *    - `reactivate` (operator): SUSPENDED → exactly the state it left (REJECTED, CONFIG_FAILED,
 *      LIVE, …); restriction_reason is cleared.
 * 4. `close` (operator): from every state except CLOSED, SUSPENDED included. CLOSED is terminal:
 *    every action from CLOSED is 409 `invalid_state_transition`.
 * 5. In-place actions (state unchanged): `update` (PATCH) in DRAFT and AWAITING_CLARIFICATION
 *    (CONTRACT §8); `resend_envelope` only in AWAITING_MERCHANT_SIGNATURE.
 * 6. Provisioning: `fail_provisioning` records the failed step (null when an operator fails it
 *    without one: a retry then starts from the first step); `retry_provisioning` resumes at that
 *    step; `complete_provisioning` assigns `processor_mids` and `gateway_merchant_id`.
 * 7. `go_live` needs every check of the go-live gate (computed outside, e.g. partner CERTIFIED in
 *    production) to pass, else 422 `go_live_gate_failed` naming the failing check codes.
 *
 * A forbidden (state, action) pair is always 409 `invalid_state_transition`; the rule checks
 * (422s) run only after the move itself is allowed.
 */
export const MERCHANT_STATES = [
  'DRAFT',
  'SUBMITTED',
  'REVIEWING',
  'AWAITING_MERCHANT_SIGNATURE',
  'UNDERWRITING',
  'APPROVED',
  'CONFIGURING',
  'CONFIG_FAILED',
  'ACTIVE',
  'LIVE',
  'REJECTED',
  'AWAITING_CLARIFICATION',
  'SUSPENDED',
  'CLOSED',
] as const;
export type MerchantState = (typeof MERCHANT_STATES)[number];

export const MERCHANT_CHANNELS = ['CNP_ONLY', 'CARD_PRESENT', 'OMNICHANNEL'] as const;
export type MerchantChannel = (typeof MERCHANT_CHANNELS)[number];
export const DEFAULT_MERCHANT_CHANNEL: MerchantChannel = 'CNP_ONLY';

/**
 * REQUIRED / NOT_REQUIRED are computed outside, from the MCC catalog's BAA requirement (on create
 * and on an MCC change). SIGNED: it was REQUIRED and a `BAA_SIGNED` compliance document was
 * uploaded; a later MCC change recomputes REQUIRED / NOT_REQUIRED (a new signed BAA is needed).
 */
export const HIPAA_BAA_STATUSES = ['REQUIRED', 'NOT_REQUIRED', 'SIGNED'] as const;
export type HipaaBaaStatus = (typeof HIPAA_BAA_STATUSES)[number];

export const ESIGN_ENVELOPE_STATUSES = ['SENT', 'COMPLETED', 'DECLINED'] as const;
export type EsignEnvelopeStatus = (typeof ESIGN_ENVELOPE_STATUSES)[number];

export const DEFAULT_RESUBMISSION_LIMIT = 3;
export const REJECTION_REASON_CODE_PATTERN = /^REJ_[0-9]{3}$/;
/** Underwriting failed without a more specific code. */
export const DEFAULT_REJECTION_REASON_CODE = 'REJ_001';
/** `rejection_reason` of a failed underwriting the operator gave no reason for. */
export const DEFAULT_UNDERWRITING_REJECTION_REASON = 'Underwriting did not pass.';
/** The signature envelope was declined or abandoned (spec). */
export const ENVELOPE_DECLINED_REASON_CODE = 'REJ_008';

/** `SUSPENDED_FROM`: back to the state the merchant was suspended from; `UNCHANGED`: in place. */
export type MerchantTarget = MerchantState | 'SUSPENDED_FROM' | 'UNCHANGED';
type Rule = { from: readonly MerchantState[]; to: MerchantTarget };

const allExcept = (...excluded: MerchantState[]): MerchantState[] =>
  MERCHANT_STATES.filter((state) => !excluded.includes(state));

/** action → the states it is allowed from → where it goes. */
export const MERCHANT_TRANSITIONS = {
  // partner
  submit: { from: ['DRAFT'], to: 'SUBMITTED' },
  update: { from: ['DRAFT', 'AWAITING_CLARIFICATION'], to: 'UNCHANGED' },
  respond_clarification: { from: ['AWAITING_CLARIFICATION'], to: 'REVIEWING' },
  resubmit: { from: ['REJECTED'], to: 'REVIEWING' },
  resend_envelope: { from: ['AWAITING_MERCHANT_SIGNATURE'], to: 'UNCHANGED' },
  // operator (CONTRACT §2)
  start_review: { from: ['SUBMITTED'], to: 'REVIEWING' },
  approve_precheck: { from: ['REVIEWING'], to: 'AWAITING_MERCHANT_SIGNATURE' },
  complete_signature: { from: ['AWAITING_MERCHANT_SIGNATURE'], to: 'UNDERWRITING' },
  decline_signature: { from: ['AWAITING_MERCHANT_SIGNATURE'], to: 'REJECTED' },
  pass_underwriting: { from: ['UNDERWRITING'], to: 'APPROVED' },
  fail_underwriting: { from: ['UNDERWRITING'], to: 'REJECTED' },
  request_clarification: { from: ['REVIEWING', 'UNDERWRITING'], to: 'AWAITING_CLARIFICATION' },
  start_provisioning: { from: ['APPROVED'], to: 'CONFIGURING' },
  fail_provisioning: { from: ['CONFIGURING'], to: 'CONFIG_FAILED' },
  retry_provisioning: { from: ['CONFIG_FAILED'], to: 'CONFIGURING' },
  complete_provisioning: { from: ['CONFIGURING'], to: 'ACTIVE' },
  go_live: { from: ['ACTIVE'], to: 'LIVE' },
  suspend: { from: allExcept('DRAFT', 'SUSPENDED', 'CLOSED'), to: 'SUSPENDED' },
  reactivate: { from: ['SUSPENDED'], to: 'SUSPENDED_FROM' },
  close: { from: allExcept('CLOSED'), to: 'CLOSED' },
} as const satisfies Record<string, Rule>;

export type MerchantAction = keyof typeof MERCHANT_TRANSITIONS;

/** The `action` values of `POST /platform/merchants/{id}/transitions` (CONTRACT §2). */
export const MERCHANT_OPERATOR_ACTIONS = [
  'start_review',
  'approve_precheck',
  'complete_signature',
  'decline_signature',
  'pass_underwriting',
  'fail_underwriting',
  'request_clarification',
  'start_provisioning',
  'fail_provisioning',
  'retry_provisioning',
  'complete_provisioning',
  'go_live',
  'suspend',
  'reactivate',
  'close',
] as const satisfies readonly MerchantAction[];
export type MerchantOperatorAction = (typeof MERCHANT_OPERATOR_ACTIONS)[number];

/** Actions a partner takes through its own endpoints. */
export const MERCHANT_PARTNER_ACTIONS = [
  'submit',
  'update',
  'respond_clarification',
  'resubmit',
  'resend_envelope',
] as const satisfies readonly MerchantAction[];
export type MerchantPartnerAction = (typeof MERCHANT_PARTNER_ACTIONS)[number];

/**
 * The state `action` leads to from `from`, or 409 `invalid_state_transition`. `merchant`
 * supplies the state a suspended merchant left (for `reactivate`).
 */
export function nextMerchantState(
  action: MerchantAction,
  from: MerchantState,
  merchant: { suspendedFrom: MerchantState | null },
): MerchantState {
  const rule: Rule = MERCHANT_TRANSITIONS[action];
  if (!rule.from.includes(from)) throw new InvalidStateTransition('merchant', from, action);
  if (rule.to === 'UNCHANGED') return from;
  if (rule.to === 'SUSPENDED_FROM') {
    if (!merchant.suspendedFrom) throw new InvalidStateTransition('merchant', from, action);
    return merchant.suspendedFrom;
  }
  return rule.to;
}
