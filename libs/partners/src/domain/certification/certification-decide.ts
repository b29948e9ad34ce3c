import type { CertificationStatus } from '../partner-transitions';
import { evolveCertification, type CertificationCheck, type CertificationState } from './certification';
import {
  certificationFeatures,
  certificationFeaturesFor,
  certificationPlan,
  type FactCode,
} from './certification-catalog';
import type {
  CertificationCheckEvaluated,
  CertificationEvent,
  CertificationFlowStarted,
  EvaluationTrigger,
} from './certification-events';
import { pendingRecertificationRequest } from './certification-queries';
import {
  canMoveCheck,
  isResolved,
  nextCheckState,
  nextFlowStatus,
  nextRecertificationRequestState,
} from './certification-transitions';
import { progress } from './progress';

export type CertificationCommand =
  /**
   * Ids are minted outside: `checkIds` maps every catalog check code (CERTIFICATION_CHECKS) to a
   * fresh uuid, of which the flow uses those its features need.
   */
  | {
      type: 'PrepareCertification';
      partnerId: string;
      flowId: string;
      checkIds: Record<string, string>;
      at: Date;
    }
  | { type: 'ObserveCertificationFact'; partnerId: string; fact: FactCode; at: Date }
  /** Issued when the operator sets the partner CERTIFIED (also when it already was). */
  | { type: 'CompleteCertification'; partnerId: string; by: string; at: Date }
  | {
      type: 'RequestRecertification';
      partnerId: string;
      requestId: string;
      requestedFeatures: string[];
      message: string;
      at: Date;
    };

/** What certification reads of the partner aggregate. */
export interface CertificationPartner {
  certificationStatus: CertificationStatus;
  /** Enabled feature flag names, e.g. `ach_payments`. */
  enabledFeatures: readonly string[];
}

export const OPERATOR_WAIVER_REASON = 'certified by platform operator';

/** The partner's certification decisions. Pure: time and ids arrive with the command. */
export function decideCertification(
  command: CertificationCommand,
  state: CertificationState,
  partner: CertificationPartner,
): CertificationEvent[] {
  switch (command.type) {
    case 'PrepareCertification':
      return prepare(command, state, partner);
    case 'ObserveCertificationFact':
      return observe(command, state);
    case 'CompleteCertification':
      return complete(command, state);
    case 'RequestRecertification':
      return requestRecertification(command, state, partner);
  }
}

type CommandOf<T extends CertificationCommand['type']> = Extract<CertificationCommand, { type: T }>;

function prepare(
  command: CommandOf<'PrepareCertification'>,
  state: CertificationState,
  partner: CertificationPartner,
): CertificationEvent[] {
  // Preparing twice is harmless: the answer is the flow already under way.
  if (state.activeFlowId) return [];

  const at = command.at.toISOString();
  const request = pendingRecertificationRequest(state);
  const features = certificationFeatures([
    ...certificationFeaturesFor(partner.enabledFeatures),
    ...(request?.requestedFeatures ?? []),
  ]);
  const plan = certificationPlan(features);
  // Every flow ends completed (nothing else ends one), so no completed flow means no flow at all.
  const previous = state.latestCompletedFlowId;
  const flowType = previous ? 'RECERTIFICATION' : 'INITIAL';

  const started: CertificationFlowStarted = {
    type: 'CertificationFlowStarted',
    data: {
      flowId: command.flowId,
      partnerId: command.partnerId,
      flowType,
      attemptNumber: Object.keys(state.flows).length + 1,
      supersedesFlowId: previous,
      // An initial flow is no re-certification, even when a request (made after an operator
      // certified the partner without a flow) is what brought it about.
      recertificationReason: flowType === 'RECERTIFICATION' ? (request?.message ?? null) : null,
      features,
      baseline: {
        features,
        checkCodes: plan.checks.map((check) => check.checkCode),
        steps: plan.steps,
      },
      checks: plan.checks.map(({ feature: _feature, evidence, ...definition }) => ({
        checkId: checkIdFor(command, definition.checkCode),
        ...definition,
        evidence: [...evidence],
      })),
      startedAt: at,
    },
  };
  const events: CertificationEvent[] = [started];
  if (request) {
    nextRecertificationRequestState('fulfil', request.state);
    events.push({
      type: 'RecertificationRequestFulfilled',
      data: { requestId: request.id, flowId: command.flowId, fulfilledAt: at },
    });
  }

  // The run starts with the flow: every AUTOMATED check is judged on the facts already observed.
  // One not yet satisfied stays PENDING (the verdict is kept in its history): missing evidence is
  // not negative evidence, and only negative evidence would fail a check.
  const flow = events.reduce(evolveCertification, state).flows[command.flowId];
  for (const check of flow.checks) {
    if (check.tier !== 'AUTOMATED') continue;
    const missing = missingEvidence(check, state.observedFacts);
    events.push(
      missing.length === 0
        ? evaluation(flow.id, check, 'RUN_START', 'SATISFIED', nextCheckState('pass', check.state), state, at)
        : evaluation(flow.id, check, 'RUN_START', 'NOT_SATISFIED', check.state, state, at),
    );
  }
  return [...events, ...adminReviewsUnlocked(state, events, command.flowId, at)];
}

function observe(
  command: CommandOf<'ObserveCertificationFact'>,
  state: CertificationState,
): CertificationEvent[] {
  // The first observation is the one that counts; repeating a fact proves nothing new.
  if (Object.hasOwn(state.observedFacts, command.fact)) return [];
  const at = command.at.toISOString();
  const events: CertificationEvent[] = [
    {
      type: 'CertificationFactObserved',
      data: { partnerId: command.partnerId, fact: command.fact, observedAt: at },
    },
  ];
  const flowId = state.activeFlowId;
  if (!flowId) return events;

  const observed = events.reduce(evolveCertification, state);
  const flow = observed.flows[flowId];
  for (const check of flow.checks) {
    if (check.tier !== 'AUTOMATED' || !canMoveCheck('pass', check.state)) continue;
    if (!check.evidence.includes(command.fact)) continue;
    if (missingEvidence(check, observed.observedFacts).length > 0) continue;
    events.push(
      evaluation(flowId, check, 'EVIDENCE', 'SATISFIED', nextCheckState('pass', check.state), observed, at),
    );
  }
  return [...events, ...adminReviewsUnlocked(state, events, flowId, at)];
}

function complete(
  command: CommandOf<'CompleteCertification'>,
  state: CertificationState,
): CertificationEvent[] {
  // The operator may certify a partner that never prepared a flow: there is then nothing to close.
  if (!state.activeFlowId) return [];
  const flow = state.flows[state.activeFlowId];
  nextFlowStatus('complete', flow.status);
  const waived = flow.checks.filter((check) => !isResolved(check.state));
  for (const check of waived) nextCheckState('waive', check.state);
  return [
    {
      type: 'CertificationFlowCompleted',
      data: {
        flowId: flow.id,
        outcome: 'CERTIFIED',
        completedAt: command.at.toISOString(),
        completedBy: command.by,
        waivedCheckCodes: waived.map((check) => check.checkCode),
        waiverReason: waived.length > 0 ? OPERATOR_WAIVER_REASON : null,
      },
    },
  ];
}

function requestRecertification(
  command: CommandOf<'RequestRecertification'>,
  state: CertificationState,
  partner: CertificationPartner,
): CertificationEvent[] {
  // Only a certified partner can fall behind its certification; one open request covers every
  // feature enabled until the next flow starts, which takes in the partner's flags anyway.
  if (partner.certificationStatus !== 'CERTIFIED') return [];
  if (pendingRecertificationRequest(state)) return [];
  if (Object.hasOwn(state.recertificationRequests, command.requestId)) return [];
  const requestedFeatures = certificationFeatures(command.requestedFeatures);
  if (requestedFeatures.length === 0) return [];
  return [
    {
      type: 'RecertificationRequested',
      data: {
        requestId: command.requestId,
        partnerId: command.partnerId,
        requestedFeatures,
        message: command.message,
        createdAt: command.at.toISOString(),
      },
    },
  ];
}

function checkIdFor(command: CommandOf<'PrepareCertification'>, checkCode: string): string {
  // A missing id is the caller's bug, not the partner's: it must not be papered over.
  if (!Object.hasOwn(command.checkIds, checkCode)) {
    throw new Error(`PrepareCertification carries no id for check ${checkCode}`);
  }
  return command.checkIds[checkCode];
}

function missingEvidence(check: CertificationCheck, observedFacts: Record<string, string>): string[] {
  return check.evidence.filter((fact) => !Object.hasOwn(observedFacts, fact));
}

/** Judging a check against remembered facts takes no time: durationMs is 0. */
function evaluation(
  flowId: string,
  check: CertificationCheck,
  trigger: EvaluationTrigger,
  verdict: CertificationCheckEvaluated['data']['verdict'],
  resultingState: CertificationCheckEvaluated['data']['resultingState'],
  state: CertificationState,
  at: string,
): CertificationCheckEvaluated {
  return {
    type: 'CertificationCheckEvaluated',
    data: {
      flowId,
      checkCode: check.checkCode,
      trigger,
      verdict,
      resultingState,
      failureReason: null,
      executionLogs: evidenceLog(check, state.observedFacts),
      evaluatedAt: at,
      durationMs: 0,
    },
  };
}

function evidenceLog(check: CertificationCheck, observedFacts: Record<string, string>): string {
  const observed = check.evidence.filter((fact) => Object.hasOwn(observedFacts, fact));
  const missing = missingEvidence(check, observedFacts);
  return [
    `observed: ${observed.map((fact) => `${fact} at ${observedFacts[fact]}`).join(', ') || 'none'}`,
    `missing: ${missing.join(', ') || 'none'}`,
  ].join('; ');
}

/**
 * An ADMIN_REVIEW check waits for an administrator from the moment its step unlocks: before that
 * the partner has work left in earlier steps. Judged on the flow as the new events leave it.
 */
function adminReviewsUnlocked(
  state: CertificationState,
  events: CertificationEvent[],
  flowId: string,
  at: string,
): CertificationCheckEvaluated[] {
  const flow = events.reduce(evolveCertification, state).flows[flowId];
  const unlocked = new Set(
    progress(flow)
      .steps.filter((step) => step.unlocked)
      .map((step) => step.step),
  );
  return flow.checks
    .filter(
      (check) =>
        check.tier === 'ADMIN_REVIEW' &&
        unlocked.has(check.step) &&
        canMoveCheck('await_admin_review', check.state),
    )
    .map((check) => ({
      type: 'CertificationCheckEvaluated',
      data: {
        flowId,
        checkCode: check.checkCode,
        trigger: 'STEP_UNLOCKED',
        verdict: 'NOT_SATISFIED',
        resultingState: nextCheckState('await_admin_review', check.state),
        failureReason: null,
        executionLogs: `step ${check.step} unlocked; awaiting an administrator`,
        evaluatedAt: at,
        durationMs: 0,
      },
    }));
}
