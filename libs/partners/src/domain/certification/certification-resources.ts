import { z } from 'zod';
import { Timestamp, Uuid } from '../../../../platform/src/openapi/wire-schemas';
import type { CertificationCheck, CertificationFlow, RecertificationRequest } from './certification';
import { CERTIFICATION_FEATURES, CHECK_TIERS } from './certification-catalog';
import { CHECK_STATES, FLOW_STATUSES, RECERTIFICATION_REQUEST_STATES } from './certification-transitions';
import { progress } from './progress';

const nullableText = z.string().nullable();

export const RetryHistoryResource = z.strictObject({
  attempt: z.int(),
  trigger: z.enum(['RUN_START', 'EVIDENCE', 'STEP_UNLOCKED']),
  verdict: z.enum(['SATISFIED', 'NOT_SATISFIED']),
  resulting_state: z.enum(CHECK_STATES),
  failure_reason: nullableText,
  execution_logs: nullableText,
  evaluated_at: Timestamp,
  duration_ms: z.int(),
});
export type RetryHistoryResource = z.infer<typeof RetryHistoryResource>;

export const CheckResource = z.strictObject({
  id: z.string(),
  category: z.string(),
  label: z.string(),
  tier: z.enum(CHECK_TIERS),
  state: z.enum(CHECK_STATES),
  check_code: z.string(),
  tier_level: z.int(),
  step: z.string(),
  flag_group: nullableText,
  flag_group_label: nullableText,
  description: z.string(),
  pass_criteria: z.string(),
  attestation_statement: nullableText,
  result_notes: nullableText,
  waiver_reason: nullableText,
  submitted_by: nullableText,
  submitted_at: Timestamp.nullable(),
  submittable: z.boolean(),
  checked_by: nullableText,
  checked_at: Timestamp.nullable(),
  last_run_at: Timestamp.nullable(),
  failure_reason: nullableText,
  execution_logs: nullableText,
  request_payload: z.null(),
  retry_history: z.array(RetryHistoryResource),
});
export type CheckResource = z.infer<typeof CheckResource>;

const StepProgressResource = z.strictObject({
  step: z.string(),
  label: z.string(),
  total: z.int(),
  resolved: z.int(),
  failed: z.int(),
  awaiting_admin_review: z.int(),
  unlocked: z.boolean(),
  complete: z.boolean(),
});

/** The contract's Flow, field for field; `progress` is computed, never stored. */
export const FlowResource = z
  .strictObject({
    id: Uuid,
    partner_id: Uuid,
    status: z.enum(FLOW_STATUSES),
    features: z.array(z.string().meta({ examples: [...CERTIFICATION_FEATURES] })),
    created_at: Timestamp,
    completed_at: Timestamp.nullable(),
    run_started_at: Timestamp,
    flow_type: z.enum(['INITIAL', 'RECERTIFICATION']),
    recertification_reason: nullableText,
    attempt_number: z.int().min(1),
    supersedes_flow_id: Uuid.nullable(),
    baseline: z.strictObject({
      features: z.array(z.string().meta({ examples: [...CERTIFICATION_FEATURES] })),
      check_codes: z.array(z.string()),
      steps: z.array(z.strictObject({ step: z.string(), label: z.string(), total: z.int() })),
    }),
    progress: z.strictObject({
      total: z.int(),
      passed: z.int(),
      failed: z.int(),
      waived: z.int(),
      skipped: z.int(),
      pending: z.int(),
      awaiting_admin_review: z.int(),
      percent: z.int().min(0).max(100),
      steps: z.array(StepProgressResource),
    }),
    checks: z.array(CheckResource),
  })
  .meta({ id: 'CertificationFlow' });
export type FlowResource = z.infer<typeof FlowResource>;

export const RecertificationRequestResource = z
  .strictObject({
    id: Uuid,
    partner_id: Uuid,
    requested_features: z.array(z.string()),
    message: z.string(),
    state: z.enum(RECERTIFICATION_REQUEST_STATES),
    dismissed_reason: nullableText,
    created_at: Timestamp,
  })
  .meta({ id: 'RecertificationRequest' });
export type RecertificationRequestResource = z.infer<typeof RecertificationRequestResource>;

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
