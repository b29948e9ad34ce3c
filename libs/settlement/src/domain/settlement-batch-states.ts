import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The settlement batch state machine (stream `batch-{id}`), as data. The spec names the states and
 * leaves the moves open ("Transitions: not shown"); they are decided here and in docs/settlement.md.
 *
 * Reachable now: a settlement run opens a batch in PENDING (`open`). The moves out of PENDING
 * belong to the processor report and reconciliation (a later change), planned as:
 * PENDING → RECONCILING (the report arrives), RECONCILING → RECONCILED (every control total
 * matches) or EXCEPTION (differences open exceptions), EXCEPTION → RECONCILED (every exception
 * resolved) or CLOSED_WITH_EXCEPTIONS (closed by an operator with exceptions written off).
 */
export const SETTLEMENT_BATCH_STATES = [
  'PENDING',
  'RECONCILING',
  'RECONCILED',
  'EXCEPTION',
  'CLOSED_WITH_EXCEPTIONS',
] as const;
export type SettlementBatchState = (typeof SETTLEMENT_BATCH_STATES)[number];

/**
 * `gateway_reported`: only the gateway's per-transaction settled notifications are held (what a
 * run records); `report_verified`: the processor's report is ingested and its totals verified.
 */
export const REPORTING_BASES = ['gateway_reported', 'report_verified'] as const;
export type ReportingBasis = (typeof REPORTING_BASES)[number];

/** What opened the batch: the operator's end-of-day run (`POST /platform/settlement/run`). */
export const TRIGGER_TYPES = ['operator_run'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The state before the batch exists (its stream is empty). */
export const NO_BATCH = 'NONE';
type From = SettlementBatchState | typeof NO_BATCH;

interface Rule {
  from: readonly From[];
  to: SettlementBatchState;
}

/** action → the states it is allowed from → where it goes. */
export const SETTLEMENT_BATCH_TRANSITIONS = {
  open: { from: [NO_BATCH], to: 'PENDING' },
} as const satisfies Record<string, Rule>;

export type SettlementBatchAction = keyof typeof SETTLEMENT_BATCH_TRANSITIONS;

/** The state the action leads to; a move the table does not allow is 409 `invalid_state_transition`. */
export function nextBatchState(
  action: SettlementBatchAction,
  from: SettlementBatchState | null,
): SettlementBatchState {
  const rule: Rule = SETTLEMENT_BATCH_TRANSITIONS[action];
  const current: From = from ?? NO_BATCH;
  if (!rule.from.includes(current)) throw new InvalidStateTransition('settlement batch', current, action);
  return rule.to;
}
