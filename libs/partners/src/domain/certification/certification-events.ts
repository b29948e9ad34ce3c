/**
 * Stored certification events, all on the partner's certification stream. Stored types are never
 * renamed or reshaped; add new ones instead.
 */
import type { CheckTier } from './certification-catalog';
import type { CheckState } from './certification-transitions';

export type FlowType = 'INITIAL' | 'RECERTIFICATION';

/** What started an evaluation: the flow's run, a newly observed fact, or its step unlocking. */
export type EvaluationTrigger = 'RUN_START' | 'EVIDENCE' | 'STEP_UNLOCKED';

export type EvaluationVerdict = 'SATISFIED' | 'NOT_SATISFIED';

/** A check as the catalog defined it when the flow started; the flow is judged by this copy. */
export interface CertificationCheckSnapshot {
  checkId: string;
  checkCode: string;
  category: string;
  label: string;
  tier: CheckTier;
  tierLevel: number;
  step: string;
  flagGroup: string | null;
  flagGroupLabel: string | null;
  description: string;
  passCriteria: string;
  attestationStatement: string | null;
  evidence: string[];
}

export interface FlowBaseline {
  features: string[];
  checkCodes: string[];
  steps: { step: string; label: string; total: number }[];
}

export interface CertificationFlowStarted {
  type: 'CertificationFlowStarted';
  data: {
    flowId: string;
    partnerId: string;
    flowType: FlowType;
    attemptNumber: number;
    supersedesFlowId: string | null;
    recertificationReason: string | null;
    features: string[];
    baseline: FlowBaseline;
    checks: CertificationCheckSnapshot[];
    startedAt: string;
  };
}

export interface CertificationCheckEvaluated {
  type: 'CertificationCheckEvaluated';
  data: {
    flowId: string;
    checkCode: string;
    trigger: EvaluationTrigger;
    verdict: EvaluationVerdict;
    resultingState: CheckState;
    failureReason: string | null;
    executionLogs: string | null;
    evaluatedAt: string;
    durationMs: number;
  };
}

/** Remembered by the partner, flow or not: a flow started later counts facts seen before it. */
export interface CertificationFactObserved {
  type: 'CertificationFactObserved';
  data: { partnerId: string; fact: string; observedAt: string };
}

export interface CertificationFlowCompleted {
  type: 'CertificationFlowCompleted';
  data: {
    flowId: string;
    outcome: 'CERTIFIED';
    completedAt: string;
    /** The operator who certified the partner; recorded as checked_by of the waived checks. */
    completedBy: string;
    waivedCheckCodes: string[];
    /** Null when no check was left to waive. */
    waiverReason: string | null;
  };
}

export interface RecertificationRequested {
  type: 'RecertificationRequested';
  data: {
    requestId: string;
    partnerId: string;
    requestedFeatures: string[];
    message: string;
    createdAt: string;
  };
}

export interface RecertificationRequestFulfilled {
  type: 'RecertificationRequestFulfilled';
  data: { requestId: string; flowId: string; fulfilledAt: string };
}

export type CertificationEvent =
  | CertificationFlowStarted
  | CertificationCheckEvaluated
  | CertificationFactObserved
  | CertificationFlowCompleted
  | RecertificationRequested
  | RecertificationRequestFulfilled;
