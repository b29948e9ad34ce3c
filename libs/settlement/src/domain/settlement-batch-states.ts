import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The settlement batch state machine (stream `batch-{id}`), as data. The spec names the states and
 * leaves the moves open ("Transitions: not shown"); they are decided here and in
 * docs/settlement.md ("Batch states"), where each move says why it exists.
 *
 * The table below is the whole machine; docs/settlement.md draws it.
 *
 * Decisions:
 * 1. PENDING: opened by a run, only the gateway has reported (`gateway_reported`).
 * 2. RECONCILING: a processor report was accepted and verified (`report_verified`); the
 *    exceptions it decided are being recorded on their own streams. The batch rests here only if
 *    that is interrupted; a retry of the same request (or the reconciliation sweep) finishes it.
 * 3. EXCEPTION: at least one of the batch's exceptions is outstanding (OPEN or ESCALATED): the
 *    payout is held (`held_reason`). A report that never came (`report_missing`, the sweep
 *    after `expected_by`) puts a PENDING batch here too.
 * 4. RECONCILED: a verified report, nothing outstanding and nothing written off: every
 *    difference was corrected (a later report, an operator). Final; the payout is released.
 * 5. CLOSED_WITH_EXCEPTIONS: nothing outstanding, but at least one difference was written off:
 *    the books close on an accepted difference. Final; the payout is released. Writing off a
 *    MISSING_BATCH closes the batch on the gateway's figures (no report, no fees).
 * 5a. `await_report`: an operator resolved a MISSING_BATCH without writing it off (the report is
 *    on its way) and nothing else is outstanding: back to PENDING, and the sweep does not flag it
 *    again; the report, when it comes, reconciles as usual.
 * 6. A later report is accepted while nothing is final (PENDING, RECONCILING, EXCEPTION); a final
 *    batch refuses one (409): a correction after close is an adjustment, not a report.
 * 7. `record_exception_outcome` (an exception of the batch resolved or escalated) is taken while
 *    an exception can be outstanding (RECONCILING, EXCEPTION); from EXCEPTION it may finish the
 *    batch (`reconcile` or `close_with_exceptions` in the same decision).
 */
export const SETTLEMENT_BATCH_STATES = [
  'PENDING',
  'RECONCILING',
  'RECONCILED',
  'EXCEPTION',
  'CLOSED_WITH_EXCEPTIONS',
] as const;
export type SettlementBatchState = (typeof SETTLEMENT_BATCH_STATES)[number];

/** The states nothing leaves: the payout is released. */
export const FINAL_BATCH_STATES: readonly SettlementBatchState[] = ['RECONCILED', 'CLOSED_WITH_EXCEPTIONS'];

/**
 * `gateway_reported`: only the gateway's per-transaction settled notifications are held (what a
 * run records); `report_verified`: the processor's report is ingested and its totals verified.
 */
export const REPORTING_BASES = ['gateway_reported', 'report_verified'] as const;
export type ReportingBasis = (typeof REPORTING_BASES)[number];

/** What opened the batch: the operator's end-of-day run (`POST /platform/settlement/run`). */
export const TRIGGER_TYPES = ['operator_run'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/**
 * The payout's status at the settlement vendor (`vendor_status`): `PENDING` until the batch is
 * decided (PENDING, RECONCILING), `HELD` while an exception is outstanding (EXCEPTION), `RELEASED`
 * once the batch is final (the net amount is paid out).
 */
export const VENDOR_STATUSES = ['PENDING', 'HELD', 'RELEASED'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];

export const VENDOR_STATUS_OF: Readonly<Record<SettlementBatchState, VendorStatus>> = {
  PENDING: 'PENDING',
  RECONCILING: 'PENDING',
  EXCEPTION: 'HELD',
  RECONCILED: 'RELEASED',
  CLOSED_WITH_EXCEPTIONS: 'RELEASED',
};

/** The state before the batch exists (its stream is empty). */
export const NO_BATCH = 'NONE';
type From = SettlementBatchState | typeof NO_BATCH;

interface Rule {
  from: readonly From[];
  /** `null`: the state stays as it is. */
  to: SettlementBatchState | null;
}

/** action → the states it is allowed from → where it goes. */
export const SETTLEMENT_BATCH_TRANSITIONS = {
  open: { from: [NO_BATCH], to: 'PENDING' },
  ingest_report: { from: ['PENDING', 'RECONCILING', 'EXCEPTION'], to: 'RECONCILING' },
  report_missing: { from: ['PENDING'], to: 'EXCEPTION' },
  hold: { from: ['RECONCILING'], to: 'EXCEPTION' },
  await_report: { from: ['EXCEPTION'], to: 'PENDING' },
  reconcile: { from: ['RECONCILING', 'EXCEPTION'], to: 'RECONCILED' },
  close_with_exceptions: { from: ['RECONCILING', 'EXCEPTION'], to: 'CLOSED_WITH_EXCEPTIONS' },
  record_exception_outcome: { from: ['RECONCILING', 'EXCEPTION'], to: null },
} as const satisfies Record<string, Rule>;

export type SettlementBatchAction = keyof typeof SETTLEMENT_BATCH_TRANSITIONS;
export const SETTLEMENT_BATCH_ACTIONS = Object.keys(SETTLEMENT_BATCH_TRANSITIONS) as SettlementBatchAction[];

/** Whether the table allows `action` from `from` (null: the batch does not exist). */
export function canBatchTransition(
  action: SettlementBatchAction,
  from: SettlementBatchState | null,
): boolean {
  const rule: Rule = SETTLEMENT_BATCH_TRANSITIONS[action];
  return rule.from.includes(from ?? NO_BATCH);
}

/** The state the action leads to; a move the table does not allow is 409 `invalid_state_transition`. */
export function nextBatchState(
  action: SettlementBatchAction,
  from: SettlementBatchState | null,
): SettlementBatchState {
  if (!canBatchTransition(action, from)) {
    throw new InvalidStateTransition('settlement batch', from ?? NO_BATCH, action);
  }
  const rule: Rule = SETTLEMENT_BATCH_TRANSITIONS[action];
  return rule.to ?? (from as SettlementBatchState);
}
