import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * Reconciliation exceptions (stream `reconciliation_exception-{id}`): one difference between what
 * the platform recorded and what the processor reported, or a deadline the money missed. The spec
 * names the types, states and severities and leaves the rules open; they are decided here, one row
 * per type, and written out in docs/reconciliation.md.
 */
export const EXCEPTION_TYPES = [
  'MISSING_TRANSACTION',
  'EXTRA_TRANSACTION',
  'DUPLICATE_TRANSACTION',
  'AMOUNT_MISMATCH',
  'UNSETTLED_TRANSACTION',
  'FEE_MISMATCH',
  'BATCH_TOTAL_MISMATCH',
  'UNMATCHED_PLATFORM',
  'MISSING_BATCH',
  'LATE_PRESENTMENT',
  'CAPTURED_AMOUNT_MISMATCH',
  'ASSESSED_SURCHARGE_MISMATCH',
  'SURCHARGE_REVERSAL_MISMATCH',
] as const;
export type ExceptionType = (typeof EXCEPTION_TYPES)[number];

export const EXCEPTION_STATES = [
  'OPEN',
  'AUTO_RESOLVED',
  'MANUAL_RESOLVED',
  'WRITTEN_OFF',
  'ESCALATED',
] as const;
export type ExceptionState = (typeof EXCEPTION_STATES)[number];

export const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The states an operator may put an exception in (`POST /platform/reconciliation-exceptions/{id}/resolve`). */
export const OPERATOR_RESOLUTIONS = ['MANUAL_RESOLVED', 'WRITTEN_OFF', 'ESCALATED'] as const;
export type OperatorResolution = (typeof OPERATOR_RESOLUTIONS)[number];

/** Still needs someone: the batch's payout is held while one of its exceptions is outstanding. */
export const OUTSTANDING_STATES: readonly ExceptionState[] = ['OPEN', 'ESCALATED'];

export const isOutstanding = (state: ExceptionState): boolean => OUTSTANDING_STATES.includes(state);

/**
 * Where a type comes from: `report` (decided when a processor report is ingested, against the
 * batch), `sweep` (the reconciliation sweep on the platform clock, against a deadline).
 */
export type ExceptionSource = 'report' | 'sweep';

export interface ExceptionRule {
  source: ExceptionSource;
  /** What the exception is about: the batch, or one transaction. */
  subject: 'batch' | 'transaction';
  /** The default severity; null: informational, for the operator to weigh. */
  severity: Severity | null;
  /** What produces it. */
  raisedWhen: string;
  /** What resolves it without an operator. */
  autoResolvesWhen: string;
}

/**
 * One rule per type. The text is the contract (docs/reconciliation.md copies it); the code that
 * applies it is `reconcileReport` (processor-report.ts) and the sweep's rules (reconciliation-rules.ts).
 */
export const EXCEPTION_RULES: Readonly<Record<ExceptionType, ExceptionRule>> = {
  MISSING_TRANSACTION: {
    source: 'report',
    subject: 'transaction',
    severity: 'HIGH',
    raisedWhen: 'a member of the batch (settled by the gateway) has no line in the processor report',
    autoResolvesWhen: 'a later report of the batch has a line for it',
  },
  EXTRA_TRANSACTION: {
    source: 'report',
    subject: 'transaction',
    severity: 'MEDIUM',
    raisedWhen:
      'a report line names a transaction of the batch’s merchant that is not a member of the batch (HIGH when it is a member of another batch: settled twice)',
    autoResolvesWhen: 'a later report of the batch no longer has a line for it',
  },
  DUPLICATE_TRANSACTION: {
    source: 'report',
    subject: 'transaction',
    severity: 'HIGH',
    raisedWhen: 'the report has more than one line for the same transaction',
    autoResolvesWhen: 'a later report of the batch has at most one line for it',
  },
  AMOUNT_MISMATCH: {
    source: 'report',
    subject: 'transaction',
    severity: 'MEDIUM',
    raisedWhen:
      'a line without a surcharge breakdown reports another amount than the member’s signed gross amount (base + surcharge + convenience fee)',
    autoResolvesWhen: 'a later report of the batch reports the member’s amount',
  },
  UNSETTLED_TRANSACTION: {
    source: 'sweep',
    subject: 'transaction',
    severity: 'MEDIUM',
    raisedWhen:
      'an ACH entry is still SUBMITTED after the end of the third banking day after its submission day (ACH clears in 1 to 3 banking days)',
    autoResolvesWhen: 'the entry leaves SUBMITTED (settled, voided or returned)',
  },
  FEE_MISMATCH: {
    source: 'report',
    subject: 'batch',
    severity: 'LOW',
    raisedWhen:
      'the report’s fees differ from the fees the merchant’s fee profile gives for the batch’s members',
    autoResolvesWhen: 'a later report of the batch reports the expected fees',
  },
  BATCH_TOTAL_MISMATCH: {
    source: 'report',
    subject: 'batch',
    severity: 'HIGH',
    raisedWhen:
      'the report’s control total (total_amount) is not the sum of its own lines: a difference no line explains',
    autoResolvesWhen: 'a later report of the batch foots',
  },
  UNMATCHED_PLATFORM: {
    source: 'report',
    subject: 'transaction',
    severity: 'CRITICAL',
    raisedWhen:
      'a report line names no transaction the platform has for the batch’s merchant (unknown, or another merchant’s): money the platform cannot attribute',
    autoResolvesWhen: 'a later report of the batch no longer has the line',
  },
  MISSING_BATCH: {
    source: 'sweep',
    subject: 'batch',
    severity: 'HIGH',
    raisedWhen: 'no processor report of the batch has arrived by its expected_by',
    autoResolvesWhen: 'a processor report of the batch arrives',
  },
  LATE_PRESENTMENT: {
    source: 'sweep',
    subject: 'transaction',
    severity: null,
    raisedWhen:
      'a card capture is still CAPTURED (not presented in a batch) after the end of the banking day after its capture day',
    autoResolvesWhen: 'the capture leaves CAPTURED (settled in a batch, or voided)',
  },
  CAPTURED_AMOUNT_MISMATCH: {
    source: 'report',
    subject: 'transaction',
    severity: 'HIGH',
    raisedWhen:
      'a line with a surcharge breakdown reports another captured amount (its amount without the surcharge) than the member’s base + convenience fee priced by the merchant’s programs',
    autoResolvesWhen: 'a later report of the batch reports the member’s captured amount',
  },
  ASSESSED_SURCHARGE_MISMATCH: {
    source: 'report',
    subject: 'transaction',
    severity: 'MEDIUM',
    raisedWhen:
      'a charge’s line reports another surcharge than the one the merchant’s surcharge program assessed on it',
    autoResolvesWhen: 'a later report of the batch reports the assessed surcharge',
  },
  SURCHARGE_REVERSAL_MISMATCH: {
    source: 'report',
    subject: 'transaction',
    severity: 'MEDIUM',
    raisedWhen:
      'a refund’s line reports another reversed surcharge than the refund’s share of the original surcharge',
    autoResolvesWhen: 'a later report of the batch reports the refund’s share',
  },
};

/**
 * The exception state machine, as data (the spec: "Resolution is an operator action, never a
 * partner action. Transitions: not shown"):
 * 1. An exception is born OPEN.
 * 2. ESCALATED hands it to a higher tier (the processor, finance): still outstanding, so it can be
 *    resolved later, by an operator or automatically. Escalating twice is refused.
 * 3. MANUAL_RESOLVED (corrected by an operator), WRITTEN_OFF (accepted as a difference) and
 *    AUTO_RESOLVED (the difference went away: a later report, the money moved) are final:
 *    resolving a resolved exception is 409 `invalid_state_transition`.
 */
const NONE = 'NONE';
type From = ExceptionState | typeof NONE;

export const EXCEPTION_TRANSITIONS = {
  open: { from: [NONE], to: 'OPEN' },
  escalate: { from: ['OPEN'], to: 'ESCALATED' },
  resolve_manually: { from: ['OPEN', 'ESCALATED'], to: 'MANUAL_RESOLVED' },
  write_off: { from: ['OPEN', 'ESCALATED'], to: 'WRITTEN_OFF' },
  auto_resolve: { from: ['OPEN', 'ESCALATED'], to: 'AUTO_RESOLVED' },
} as const satisfies Record<string, { from: readonly From[]; to: ExceptionState }>;

export type ExceptionAction = keyof typeof EXCEPTION_TRANSITIONS;
export const EXCEPTION_ACTIONS = Object.keys(EXCEPTION_TRANSITIONS) as ExceptionAction[];

/** The operator's requested state as an action of the table. */
export const RESOLUTION_ACTION: Readonly<Record<OperatorResolution, ExceptionAction>> = {
  MANUAL_RESOLVED: 'resolve_manually',
  WRITTEN_OFF: 'write_off',
  ESCALATED: 'escalate',
};

export function canExceptionTransition(action: ExceptionAction, from: ExceptionState | null): boolean {
  return (EXCEPTION_TRANSITIONS[action].from as readonly From[]).includes(from ?? NONE);
}

/** The state the action leads to; a move the table does not allow is 409 `invalid_state_transition`. */
export function nextExceptionState(action: ExceptionAction, from: ExceptionState | null): ExceptionState {
  if (!canExceptionTransition(action, from)) {
    throw new InvalidStateTransition('reconciliation exception', from ?? NONE, action);
  }
  return EXCEPTION_TRANSITIONS[action].to;
}
