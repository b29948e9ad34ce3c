import type { CheckTier } from './certification-catalog';
import type {
  CertificationCheckEvaluated,
  CertificationEvent,
  CertificationFlowCompleted,
  CertificationFlowStarted,
  EvaluationTrigger,
  EvaluationVerdict,
  FlowBaseline,
  FlowType,
} from './certification-events';
import type { CheckState, FlowStatus, RecertificationRequestState } from './certification-transitions';

/** Who checked a check the platform passed on evidence. */
export const SYSTEM_CHECKER = 'system';

export interface RetryHistoryEntry {
  attempt: number;
  trigger: EvaluationTrigger;
  verdict: EvaluationVerdict;
  resultingState: CheckState;
  failureReason: string | null;
  executionLogs: string | null;
  evaluatedAt: string;
  durationMs: number;
}

/**
 * A check of one flow. `resultNotes`, `submittedBy`, `submittedAt` and `requestPayload` stay null
 * and `submittable` false: partner submissions and operator pass/fail were removed from the
 * contract in 2026-09, and facts carry no request; the contract still lists the fields.
 */
export interface CertificationCheck {
  id: string;
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
  /** Not in the resource: what the flow's copy of the catalog requires. */
  evidence: string[];
  state: CheckState;
  resultNotes: string | null;
  waiverReason: string | null;
  submittedBy: string | null;
  submittedAt: string | null;
  submittable: false;
  checkedBy: string | null;
  checkedAt: string | null;
  lastRunAt: string | null;
  failureReason: string | null;
  executionLogs: string | null;
  requestPayload: null;
  retryHistory: RetryHistoryEntry[];
}

export interface CertificationFlow {
  id: string;
  partnerId: string;
  status: FlowStatus;
  features: string[];
  createdAt: string;
  completedAt: string | null;
  /** The run starts with the flow: the separate start and rerun operations left the contract. */
  runStartedAt: string;
  flowType: FlowType;
  recertificationReason: string | null;
  attemptNumber: number;
  supersedesFlowId: string | null;
  baseline: FlowBaseline;
  /** In catalog order: steps in order, and within a step the catalog's order. */
  checks: CertificationCheck[];
}

export interface RecertificationRequest {
  id: string;
  partnerId: string;
  requestedFeatures: string[];
  message: string;
  state: RecertificationRequestState;
  /** Always null: dismissing a request is not in the contract. */
  dismissedReason: string | null;
  createdAt: string;
  fulfilledByFlowId: string | null;
  fulfilledAt: string | null;
}

/** One partner's certification: the state of its certification stream. */
export interface CertificationState {
  flows: Record<string, CertificationFlow>;
  activeFlowId: string | null;
  latestCompletedFlowId: string | null;
  /** Fact code → when it was first observed; later observations add nothing. */
  observedFacts: Record<string, string>;
  recertificationRequests: Record<string, RecertificationRequest>;
  /** The most recent request, pending or fulfilled: what GET .../recertification-requests/current shows. */
  currentRecertificationRequestId: string | null;
}

export const initialCertificationState = (): CertificationState => ({
  flows: {},
  activeFlowId: null,
  latestCompletedFlowId: null,
  observedFacts: {},
  recertificationRequests: {},
  currentRecertificationRequestId: null,
});

/** Folds one event. Events are facts: evolve never throws, and ignores what it cannot place. */
export function evolveCertification(
  state: CertificationState,
  event: CertificationEvent,
): CertificationState {
  switch (event.type) {
    case 'CertificationFlowStarted': {
      const flow = startedFlow(event.data);
      return { ...state, flows: { ...state.flows, [flow.id]: flow }, activeFlowId: flow.id };
    }
    case 'CertificationCheckEvaluated':
      return withFlow(state, event.data.flowId, (flow) => evaluated(flow, event.data));
    case 'CertificationFactObserved':
      if (Object.hasOwn(state.observedFacts, event.data.fact)) return state;
      return {
        ...state,
        observedFacts: { ...state.observedFacts, [event.data.fact]: event.data.observedAt },
      };
    case 'CertificationFlowCompleted': {
      const { flowId } = event.data;
      if (!Object.hasOwn(state.flows, flowId)) return state;
      const completed = withFlow(state, flowId, (flow) => completedFlow(flow, event.data));
      const supersededId = completed.flows[flowId].supersedesFlowId;
      const superseded = supersededId
        ? withFlow(completed, supersededId, (flow) => ({ ...flow, status: 'SUPERSEDED' }))
        : completed;
      return {
        ...superseded,
        activeFlowId: state.activeFlowId === flowId ? null : state.activeFlowId,
        latestCompletedFlowId: flowId,
      };
    }
    case 'RecertificationRequested': {
      const d = event.data;
      const request: RecertificationRequest = {
        id: d.requestId,
        partnerId: d.partnerId,
        requestedFeatures: d.requestedFeatures,
        message: d.message,
        state: 'PENDING',
        dismissedReason: null,
        createdAt: d.createdAt,
        fulfilledByFlowId: null,
        fulfilledAt: null,
      };
      return {
        ...state,
        recertificationRequests: { ...state.recertificationRequests, [request.id]: request },
        currentRecertificationRequestId: request.id,
      };
    }
    case 'RecertificationRequestFulfilled': {
      const { requestId, flowId, fulfilledAt } = event.data;
      if (!Object.hasOwn(state.recertificationRequests, requestId)) return state;
      const request = state.recertificationRequests[requestId];
      const fulfilled = { ...request, state: 'FULFILLED' as const, fulfilledByFlowId: flowId, fulfilledAt };
      return {
        ...state,
        recertificationRequests: { ...state.recertificationRequests, [requestId]: fulfilled },
      };
    }
  }
}

export const certificationEvolver = { initialState: initialCertificationState, evolve: evolveCertification };

function withFlow(
  state: CertificationState,
  flowId: string,
  change: (flow: CertificationFlow) => CertificationFlow,
): CertificationState {
  if (!Object.hasOwn(state.flows, flowId)) return state;
  return { ...state, flows: { ...state.flows, [flowId]: change(state.flows[flowId]) } };
}

function startedFlow(d: CertificationFlowStarted['data']): CertificationFlow {
  return {
    id: d.flowId,
    partnerId: d.partnerId,
    status: 'ACTIVE',
    features: d.features,
    createdAt: d.startedAt,
    completedAt: null,
    runStartedAt: d.startedAt,
    flowType: d.flowType,
    recertificationReason: d.recertificationReason,
    attemptNumber: d.attemptNumber,
    supersedesFlowId: d.supersedesFlowId,
    baseline: d.baseline,
    checks: d.checks.map(({ checkId, ...definition }) => ({
      id: checkId,
      ...definition,
      state: 'PENDING',
      resultNotes: null,
      waiverReason: null,
      submittedBy: null,
      submittedAt: null,
      submittable: false,
      checkedBy: null,
      checkedAt: null,
      lastRunAt: null,
      failureReason: null,
      executionLogs: null,
      requestPayload: null,
      retryHistory: [],
    })),
  };
}

function evaluated(flow: CertificationFlow, d: CertificationCheckEvaluated['data']): CertificationFlow {
  // Only a verdict that decides the check (PASSED, FAILED) names a checker; waiting states do not.
  const decided = d.resultingState === 'PASSED' || d.resultingState === 'FAILED';
  return {
    ...flow,
    checks: flow.checks.map((check) =>
      check.checkCode !== d.checkCode
        ? check
        : {
            ...check,
            state: d.resultingState,
            checkedBy: decided ? SYSTEM_CHECKER : check.checkedBy,
            checkedAt: decided ? d.evaluatedAt : check.checkedAt,
            lastRunAt: d.evaluatedAt,
            failureReason: d.failureReason,
            executionLogs: d.executionLogs,
            retryHistory: [
              ...check.retryHistory,
              {
                attempt: check.retryHistory.length + 1,
                trigger: d.trigger,
                verdict: d.verdict,
                resultingState: d.resultingState,
                failureReason: d.failureReason,
                executionLogs: d.executionLogs,
                evaluatedAt: d.evaluatedAt,
                durationMs: d.durationMs,
              },
            ],
          },
    ),
  };
}

function completedFlow(flow: CertificationFlow, d: CertificationFlowCompleted['data']): CertificationFlow {
  return {
    ...flow,
    status: 'COMPLETED',
    completedAt: d.completedAt,
    checks: flow.checks.map((check) =>
      d.waivedCheckCodes.includes(check.checkCode)
        ? {
            ...check,
            state: 'WAIVED',
            waiverReason: d.waiverReason,
            checkedBy: d.completedBy,
            checkedAt: d.completedAt,
          }
        : check,
    ),
  };
}
