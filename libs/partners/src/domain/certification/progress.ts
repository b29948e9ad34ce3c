import { isResolved, type CheckState } from './certification-transitions';

/** The `progress` object of the Flow resource, spelled as the contract spells it. */
export interface FlowProgress {
  total: number;
  passed: number;
  failed: number;
  waived: number;
  skipped: number;
  pending: number;
  awaiting_admin_review: number;
  percent: number;
  steps: StepProgress[];
}

export interface StepProgress {
  step: string;
  label: string;
  total: number;
  resolved: number;
  failed: number;
  awaiting_admin_review: number;
  unlocked: boolean;
  complete: boolean;
}

/** What progress needs of a flow: its steps in order and the state of each check. */
export interface ProgressInput {
  baseline: { steps: readonly { step: string; label: string }[] };
  checks: readonly { step: string; state: CheckState }[];
}

/**
 * - resolved = PASSED + WAIVED + SKIPPED: what no longer holds a step back;
 * - percent = floor(resolved × 100 / total), 0 for a flow without checks, so 100 means all resolved;
 * - a step is complete when every one of its checks is resolved;
 * - the first step is unlocked, and any other step once every earlier step is complete.
 * Steps come from the baseline (the flow's order at its start); counts from the checks now.
 */
export function progress(flow: ProgressInput): FlowProgress {
  const count = (state: CheckState, checks = flow.checks) => checks.filter((c) => c.state === state).length;
  const total = flow.checks.length;
  const resolved = flow.checks.filter((c) => isResolved(c.state)).length;

  let earlierComplete = true;
  const steps = flow.baseline.steps.map(({ step, label }): StepProgress => {
    const checks = flow.checks.filter((c) => c.step === step);
    const stepResolved = checks.filter((c) => isResolved(c.state)).length;
    const complete = stepResolved === checks.length;
    const unlocked = earlierComplete;
    earlierComplete = earlierComplete && complete;
    return {
      step,
      label,
      total: checks.length,
      resolved: stepResolved,
      failed: count('FAILED', checks),
      awaiting_admin_review: count('AWAITING_ADMIN_REVIEW', checks),
      unlocked,
      complete,
    };
  });

  return {
    total,
    passed: count('PASSED'),
    failed: count('FAILED'),
    waived: count('WAIVED'),
    skipped: count('SKIPPED'),
    pending: count('PENDING'),
    awaiting_admin_review: count('AWAITING_ADMIN_REVIEW'),
    percent: total === 0 ? 0 : Math.floor((resolved * 100) / total),
    steps,
  };
}
