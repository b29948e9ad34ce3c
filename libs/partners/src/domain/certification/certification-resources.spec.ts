import { evolveCertification, initialCertificationState, type CertificationState } from './certification';
import { CERTIFICATION_CHECKS } from './certification-catalog';
import { decideCertification, type CertificationCommand } from './certification-decide';
import type { CertificationEvent } from './certification-events';
import { CertificationFlowNotFound, RecertificationRequestNotFound } from './certification-errors';
import {
  activeFlow,
  currentRecertificationRequest,
  flowById,
  latestCompletedFlow,
  pendingRecertificationRequest,
} from './certification-queries';
import { toFlowResource, toRecertificationRequestResource } from './certification-resources';

const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const FLOW = '6a1e8c7e-0f43-4c55-9a0e-5d1b1b1c0001';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');
const PENDING = { certificationStatus: 'PENDING', enabledFeatures: ['hosted_payment_pages'] } as const;

const checkIds = Object.fromEntries(
  CERTIFICATION_CHECKS.map((check, i) => [
    check.checkCode,
    `c0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  ]),
);
const fold = (events: CertificationEvent[], from: CertificationState = initialCertificationState()) =>
  events.reduce(evolveCertification, from);
const run = (state: CertificationState, command: CertificationCommand) =>
  fold(decideCertification(command, state, PENDING), state);

const prepared = run(initialCertificationState(), {
  type: 'PrepareCertification',
  partnerId: PARTNER,
  flowId: FLOW,
  checkIds,
  at: T0,
});
const withIdentity = run(run(prepared, observe('API_KEY_ISSUED')), observe('PARTNER_IDENTITY_READ'));

function observe(fact: 'API_KEY_ISSUED' | 'PARTNER_IDENTITY_READ'): CertificationCommand {
  return { type: 'ObserveCertificationFact', partnerId: PARTNER, fact, at: T1 };
}

/** The contract's field lists (spec, "Certification"), in its order. */
const FLOW_FIELDS = [
  'id',
  'partner_id',
  'status',
  'features',
  'created_at',
  'completed_at',
  'run_started_at',
  'flow_type',
  'recertification_reason',
  'attempt_number',
  'supersedes_flow_id',
  'baseline',
  'progress',
  'checks',
];
const CHECK_FIELDS = [
  'id',
  'category',
  'label',
  'tier',
  'state',
  'check_code',
  'tier_level',
  'step',
  'flag_group',
  'flag_group_label',
  'description',
  'pass_criteria',
  'attestation_statement',
  'result_notes',
  'waiver_reason',
  'submitted_by',
  'submitted_at',
  'submittable',
  'checked_by',
  'checked_at',
  'last_run_at',
  'failure_reason',
  'execution_logs',
  'request_payload',
  'retry_history',
];
const RETRY_FIELDS = [
  'attempt',
  'trigger',
  'verdict',
  'resulting_state',
  'failure_reason',
  'execution_logs',
  'evaluated_at',
  'duration_ms',
];

describe('the Flow resource', () => {
  const resource = toFlowResource(activeFlow(withIdentity));

  it('has every field of the contract and nothing else', () => {
    expect(Object.keys(resource)).toEqual(FLOW_FIELDS);
    expect(Object.keys(resource.baseline)).toEqual(['features', 'check_codes', 'steps']);
    expect(Object.keys(resource.progress)).toEqual([
      'total',
      'passed',
      'failed',
      'waived',
      'skipped',
      'pending',
      'awaiting_admin_review',
      'percent',
      'steps',
    ]);
    for (const check of resource.checks) expect(Object.keys(check)).toEqual(CHECK_FIELDS);
    expect(Object.keys(resource.checks[0].retry_history[1])).toEqual(RETRY_FIELDS);
  });

  it('shows the flow', () =>
    expect(resource).toMatchObject({
      id: FLOW,
      partner_id: PARTNER,
      status: 'ACTIVE',
      features: ['CARD', 'HPP'],
      created_at: T0.toISOString(),
      completed_at: null,
      run_started_at: T0.toISOString(),
      flow_type: 'INITIAL',
      recertification_reason: null,
      attempt_number: 1,
      supersedes_flow_id: null,
      baseline: {
        features: ['CARD', 'HPP'],
        check_codes: expect.arrayContaining(['HPP_CHECKOUT', 'HPP_UX_REVIEW']),
        steps: expect.arrayContaining([
          { step: 'HOSTED_PAYMENTS', label: 'Take payments on hosted payment pages', total: 1 },
        ]),
      },
    }));

  it('computes progress from the checks', () => {
    expect(resource.progress).toMatchObject({
      total: 13,
      passed: 1,
      pending: 12,
      percent: 7,
    });
    expect(resource.progress.steps.slice(0, 2)).toEqual([
      {
        step: 'CONNECTIVITY',
        label: 'Connect and authenticate',
        total: 1,
        resolved: 1,
        failed: 0,
        awaiting_admin_review: 0,
        unlocked: true,
        complete: true,
      },
      {
        step: 'MERCHANT_ONBOARDING',
        label: 'Onboard a merchant',
        total: 2,
        resolved: 0,
        failed: 0,
        awaiting_admin_review: 0,
        unlocked: true,
        complete: false,
      },
    ]);
  });

  it('shows a check with its history, spelled as the contract spells it', () =>
    expect(resource.checks[0]).toEqual({
      id: checkIds.API_AUTHENTICATION,
      category: 'CONNECTIVITY',
      label: 'Authenticate with an API key',
      tier: 'AUTOMATED',
      state: 'PASSED',
      check_code: 'API_AUTHENTICATION',
      tier_level: 1,
      step: 'CONNECTIVITY',
      flag_group: null,
      flag_group_label: null,
      description: 'Call the API with a key issued to the partner and read the partner identity.',
      pass_criteria: 'A key was issued and GET /partner/me answered 200 with it.',
      attestation_statement: null,
      result_notes: null,
      waiver_reason: null,
      submitted_by: null,
      submitted_at: null,
      submittable: false,
      checked_by: 'system',
      checked_at: T1.toISOString(),
      last_run_at: T1.toISOString(),
      failure_reason: null,
      execution_logs: `observed: API_KEY_ISSUED at ${T1.toISOString()}, PARTNER_IDENTITY_READ at ${T1.toISOString()}; missing: none`,
      request_payload: null,
      retry_history: [
        {
          attempt: 1,
          trigger: 'RUN_START',
          verdict: 'NOT_SATISFIED',
          resulting_state: 'PENDING',
          failure_reason: null,
          execution_logs: 'observed: none; missing: API_KEY_ISSUED, PARTNER_IDENTITY_READ',
          evaluated_at: T0.toISOString(),
          duration_ms: 0,
        },
        {
          attempt: 2,
          trigger: 'EVIDENCE',
          verdict: 'SATISFIED',
          resulting_state: 'PASSED',
          failure_reason: null,
          execution_logs: `observed: API_KEY_ISSUED at ${T1.toISOString()}, PARTNER_IDENTITY_READ at ${T1.toISOString()}; missing: none`,
          evaluated_at: T1.toISOString(),
          duration_ms: 0,
        },
      ],
    }));

  it('shows the attestation a review check asks for', () =>
    expect(resource.checks.find((c) => c.check_code === 'HPP_UX_REVIEW')).toMatchObject({
      tier: 'ADMIN_REVIEW',
      tier_level: 3,
      step: 'COMPLIANCE_REVIEW',
      flag_group: 'hosted_payment_pages',
      flag_group_label: 'Hosted payment pages',
      state: 'PENDING',
    }));
});

describe('the re-certification request resource', () => {
  it('has the contract fields', () => {
    const state = fold([
      {
        type: 'RecertificationRequested',
        data: {
          requestId: 'r1',
          partnerId: PARTNER,
          requestedFeatures: ['TERMINAL'],
          message: 'Terminals were enabled',
          createdAt: T0.toISOString(),
        },
      },
      {
        type: 'RecertificationRequestFulfilled',
        data: { requestId: 'r1', flowId: FLOW, fulfilledAt: T1.toISOString() },
      },
    ]);
    expect(toRecertificationRequestResource(currentRecertificationRequest(state))).toEqual({
      id: 'r1',
      partner_id: PARTNER,
      requested_features: ['TERMINAL'],
      message: 'Terminals were enabled',
      state: 'FULFILLED',
      dismissed_reason: null,
      created_at: T0.toISOString(),
    });
    expect(pendingRecertificationRequest(state)).toBeNull();
  });
});

describe('reads', () => {
  const empty = initialCertificationState();

  it.each([
    ['a flow by an unknown id', () => flowById(prepared, 'constructor')],
    ['the active flow when there is none', () => activeFlow(empty)],
    ['the latest completed flow when there is none', () => latestCompletedFlow(prepared)],
  ])('%s is certification_flow_not_found', (_case, read) => {
    expect(read).toThrow(CertificationFlowNotFound);
    expect(read).toThrow(expect.objectContaining({ code: 'certification_flow_not_found' }));
  });

  it('the current re-certification request when there is none is recertification_request_not_found', () => {
    const read = () => currentRecertificationRequest(empty);
    expect(read).toThrow(RecertificationRequestNotFound);
    expect(read).toThrow(expect.objectContaining({ code: 'recertification_request_not_found' }));
  });

  it('finds a flow by id', () => expect(flowById(prepared, FLOW).id).toBe(FLOW));
});

describe('evolve', () => {
  it('ignores what it cannot place instead of throwing', () => {
    const events: CertificationEvent[] = [
      {
        type: 'CertificationCheckEvaluated',
        data: {
          flowId: 'unknown',
          checkCode: 'API_AUTHENTICATION',
          trigger: 'EVIDENCE',
          verdict: 'SATISFIED',
          resultingState: 'PASSED',
          failureReason: null,
          executionLogs: null,
          evaluatedAt: T1.toISOString(),
          durationMs: 0,
        },
      },
      {
        type: 'CertificationFlowCompleted',
        data: {
          flowId: 'unknown',
          outcome: 'CERTIFIED',
          completedAt: T1.toISOString(),
          completedBy: 'op',
          waivedCheckCodes: [],
          waiverReason: null,
        },
      },
      {
        type: 'RecertificationRequestFulfilled',
        data: { requestId: 'unknown', flowId: FLOW, fulfilledAt: '' },
      },
    ];
    expect(fold(events, prepared)).toEqual(prepared);
  });

  it('keeps the first observation of a fact', () => {
    const observed = (at: Date): CertificationEvent => ({
      type: 'CertificationFactObserved',
      data: { partnerId: PARTNER, fact: 'API_KEY_ISSUED', observedAt: at.toISOString() },
    });
    expect(fold([observed(T0), observed(T1)]).observedFacts).toEqual({ API_KEY_ISSUED: T0.toISOString() });
  });
});
