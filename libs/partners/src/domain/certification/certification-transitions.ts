import { InvalidStateTransition } from '../../../../platform/src/problem';

/**
 * FAILED and SKIPPED are states of the contract that no rule enters yet: a check fails only on
 * explicit negative evidence, and is skipped only when it does not apply, and neither is observed
 * today. They are counted by progress all the same, so that adding such a rule changes no reader.
 */
export const CHECK_STATES = [
  'PENDING',
  'PASSED',
  'FAILED',
  'WAIVED',
  'SKIPPED',
  'AWAITING_ADMIN_REVIEW',
] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** A resolved check no longer holds its step back. */
export const RESOLVED_CHECK_STATES: readonly CheckState[] = ['PASSED', 'WAIVED', 'SKIPPED'];

export const isResolved = (state: CheckState): boolean => RESOLVED_CHECK_STATES.includes(state);

type Rule<S extends string> = { from: readonly S[]; to: S };

export const CHECK_TRANSITIONS = {
  /** Every evidence fact of an AUTOMATED check observed; a later success also clears a failure. */
  pass: { from: ['PENDING', 'FAILED'], to: 'PASSED' },
  /** The step of an ADMIN_REVIEW check unlocked. */
  await_admin_review: { from: ['PENDING'], to: 'AWAITING_ADMIN_REVIEW' },
  /** The operator certified the partner with the check unresolved. */
  waive: { from: ['PENDING', 'FAILED', 'AWAITING_ADMIN_REVIEW'], to: 'WAIVED' },
} satisfies Record<string, Rule<CheckState>>;

export type CheckAction = keyof typeof CHECK_TRANSITIONS;

/**
 * A flow ends only by the operator certifying the partner; it is SUPERSEDED when the
 * re-certification flow that replaces it completes in its turn (not when that flow starts: until
 * then it is still the partner's latest completed certification).
 */
export const FLOW_STATUSES = ['ACTIVE', 'COMPLETED', 'SUPERSEDED'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

export const FLOW_TRANSITIONS = {
  complete: { from: ['ACTIVE'], to: 'COMPLETED' },
  supersede: { from: ['COMPLETED'], to: 'SUPERSEDED' },
} satisfies Record<string, Rule<FlowStatus>>;

export type FlowAction = keyof typeof FLOW_TRANSITIONS;

/** A re-certification request is fulfilled by the next flow started; dismissal is not in the contract. */
export const RECERTIFICATION_REQUEST_STATES = ['PENDING', 'FULFILLED'] as const;
export type RecertificationRequestState = (typeof RECERTIFICATION_REQUEST_STATES)[number];

export const RECERTIFICATION_REQUEST_TRANSITIONS = {
  fulfil: { from: ['PENDING'], to: 'FULFILLED' },
} satisfies Record<string, Rule<RecertificationRequestState>>;

export type RecertificationRequestAction = keyof typeof RECERTIFICATION_REQUEST_TRANSITIONS;

function move<S extends string>(aggregate: string, rule: Rule<S>, action: string, from: S): S {
  if (!rule.from.includes(from)) throw new InvalidStateTransition(aggregate, from, action);
  return rule.to;
}

export const canMoveCheck = (action: CheckAction, from: CheckState): boolean =>
  (CHECK_TRANSITIONS[action].from as readonly CheckState[]).includes(from);

export const nextCheckState = (action: CheckAction, from: CheckState): CheckState =>
  move<CheckState>('certification check', CHECK_TRANSITIONS[action], action, from);

export const nextFlowStatus = (action: FlowAction, from: FlowStatus): FlowStatus =>
  move<FlowStatus>('certification flow', FLOW_TRANSITIONS[action], action, from);

export const nextRecertificationRequestState = (
  action: RecertificationRequestAction,
  from: RecertificationRequestState,
): RecertificationRequestState =>
  move<RecertificationRequestState>(
    'recertification request',
    RECERTIFICATION_REQUEST_TRANSITIONS[action],
    action,
    from,
  );
