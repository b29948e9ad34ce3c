import type { CertificationCheck, CertificationFlow, RecertificationRequest } from './certification';
import { progress, type FlowProgress } from './progress';

/** The contract's Flow, field for field; `progress` is computed, never stored. */
export interface FlowResource {
  id: string;
  partner_id: string;
  status: string;
  features: string[];
  created_at: string;
  completed_at: string | null;
  run_started_at: string;
  flow_type: string;
  recertification_reason: string | null;
  attempt_number: number;
  supersedes_flow_id: string | null;
  baseline: {
    features: string[];
    check_codes: string[];
    steps: { step: string; label: string; total: number }[];
  };
  progress: FlowProgress;
  checks: CheckResource[];
}

export interface CheckResource {
  id: string;
  category: string;
  label: string;
  tier: string;
  state: string;
  check_code: string;
  tier_level: number;
  step: string;
  flag_group: string | null;
  flag_group_label: string | null;
  description: string;
  pass_criteria: string;
  attestation_statement: string | null;
  result_notes: string | null;
  waiver_reason: string | null;
  submitted_by: string | null;
  submitted_at: string | null;
  submittable: boolean;
  checked_by: string | null;
  checked_at: string | null;
  last_run_at: string | null;
  failure_reason: string | null;
  execution_logs: string | null;
  request_payload: null;
  retry_history: RetryHistoryResource[];
}

export interface RetryHistoryResource {
  attempt: number;
  trigger: string;
  verdict: string;
  resulting_state: string;
  failure_reason: string | null;
  execution_logs: string | null;
  evaluated_at: string;
  duration_ms: number;
}

export interface RecertificationRequestResource {
  id: string;
  partner_id: string;
  requested_features: string[];
  message: string;
  state: string;
  dismissed_reason: string | null;
  created_at: string;
}

export function toFlowResource(flow: CertificationFlow): FlowResource {
  return {
    id: flow.id,
    partner_id: flow.partnerId,
    status: flow.status,
    features: [...flow.features],
    created_at: flow.createdAt,
    completed_at: flow.completedAt,
    run_started_at: flow.runStartedAt,
    flow_type: flow.flowType,
    recertification_reason: flow.recertificationReason,
    attempt_number: flow.attemptNumber,
    supersedes_flow_id: flow.supersedesFlowId,
    baseline: {
      features: [...flow.baseline.features],
      check_codes: [...flow.baseline.checkCodes],
      steps: flow.baseline.steps.map(({ step, label, total }) => ({ step, label, total })),
    },
    progress: progress(flow),
    checks: flow.checks.map(toCheckResource),
  };
}

function toCheckResource(check: CertificationCheck): CheckResource {
  return {
    id: check.id,
    category: check.category,
    label: check.label,
    tier: check.tier,
    state: check.state,
    check_code: check.checkCode,
    tier_level: check.tierLevel,
    step: check.step,
    flag_group: check.flagGroup,
    flag_group_label: check.flagGroupLabel,
    description: check.description,
    pass_criteria: check.passCriteria,
    attestation_statement: check.attestationStatement,
    result_notes: check.resultNotes,
    waiver_reason: check.waiverReason,
    submitted_by: check.submittedBy,
    submitted_at: check.submittedAt,
    submittable: check.submittable,
    checked_by: check.checkedBy,
    checked_at: check.checkedAt,
    last_run_at: check.lastRunAt,
    failure_reason: check.failureReason,
    execution_logs: check.executionLogs,
    request_payload: check.requestPayload,
    retry_history: check.retryHistory.map((entry) => ({
      attempt: entry.attempt,
      trigger: entry.trigger,
      verdict: entry.verdict,
      resulting_state: entry.resultingState,
      failure_reason: entry.failureReason,
      execution_logs: entry.executionLogs,
      evaluated_at: entry.evaluatedAt,
      duration_ms: entry.durationMs,
    })),
  };
}

export function toRecertificationRequestResource(
  request: RecertificationRequest,
): RecertificationRequestResource {
  return {
    id: request.id,
    partner_id: request.partnerId,
    requested_features: [...request.requestedFeatures],
    message: request.message,
    state: request.state,
    dismissed_reason: request.dismissedReason,
    created_at: request.createdAt,
  };
}
