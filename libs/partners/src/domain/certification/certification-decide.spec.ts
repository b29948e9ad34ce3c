import { deciderSpec } from '../../../../../test/support/decider-spec';
import { evolveCertification, initialCertificationState, type CertificationState } from './certification';
import { CERTIFICATION_CHECKS, type FactCode } from './certification-catalog';
import {
  OPERATOR_WAIVER_REASON,
  decideCertification,
  type CertificationCommand,
  type CertificationPartner,
} from './certification-decide';
import type { CertificationCheckEvaluated, CertificationEvent } from './certification-events';
import {
  activeFlow,
  currentRecertificationRequest,
  flowById,
  latestCompletedFlow,
} from './certification-queries';

const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const FLOW_1 = '6a1e8c7e-0f43-4c55-9a0e-5d1b1b1c0001';
const FLOW_2 = '6a1e8c7e-0f43-4c55-9a0e-5d1b1b1c0002';
const FLOW_3 = '6a1e8c7e-0f43-4c55-9a0e-5d1b1b1c0003';
const REQUEST_1 = 'a0b1c2d3-0000-4000-8000-000000000001';
const REQUEST_2 = 'a0b1c2d3-0000-4000-8000-000000000002';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');
const T2 = new Date('2026-11-03T10:00:00.000Z');

const NEW_PARTNER: CertificationPartner = { certificationStatus: 'PENDING', enabledFeatures: [] };
const CERTIFIED: CertificationPartner = { certificationStatus: 'CERTIFIED', enabledFeatures: [] };

/** One id per catalog check, distinct per flow, as the handler mints them. */
const checkIds = (flowId: string) =>
  Object.fromEntries(
    CERTIFICATION_CHECKS.map((check, i) => [
      check.checkCode,
      `c0000000-${flowId.slice(-4)}-4000-8000-${String(i).padStart(12, '0')}`,
    ]),
  );

const prepare = (flowId = FLOW_1, at = T0): CertificationCommand => ({
  type: 'PrepareCertification',
  partnerId: PARTNER,
  flowId,
  checkIds: checkIds(flowId),
  at,
});
const observe = (fact: FactCode, at = T1): CertificationCommand => ({
  type: 'ObserveCertificationFact',
  partnerId: PARTNER,
  fact,
  at,
});
const certify = (at = T2): CertificationCommand => ({
  type: 'CompleteCertification',
  partnerId: PARTNER,
  by: 'operator:ops@platform.test',
  at,
});
const requestRecertification = (requestId = REQUEST_1, features = ['ACH']): CertificationCommand => ({
  type: 'RequestRecertification',
  partnerId: PARTNER,
  requestId,
  requestedFeatures: features,
  message: 'ACH payments were enabled',
  at: T1,
});

const given = (events: CertificationEvent[], partner: CertificationPartner = NEW_PARTNER) =>
  deciderSpec({
    decide: (command: CertificationCommand, state: CertificationState) =>
      decideCertification(command, state, partner),
    evolve: evolveCertification,
    initialState: initialCertificationState,
  })(events);

const fold = (events: CertificationEvent[]) =>
  events.reduce(evolveCertification, initialCertificationState());

/** A history built by the decider itself: each command decided on the events before it. */
function history(...steps: [CertificationCommand, CertificationPartner?][]): CertificationEvent[] {
  return steps.reduce<CertificationEvent[]>(
    (events, [command, partner = NEW_PARTNER]) => [
      ...events,
      ...decideCertification(command, fold(events), partner),
    ],
    [],
  );
}

const CARD_FLOW_FACTS: FactCode[] = [
  'API_KEY_ISSUED',
  'PARTNER_IDENTITY_READ',
  'MERCHANT_CREATED',
  'MERCHANT_SUBMITTED',
  'CARD_SALE_APPROVED',
  'CARD_SALE_DECLINED',
  'CARD_REFUND_PROCESSED',
  'CARD_VOID_PROCESSED',
  'IDEMPOTENT_REPLAY_OBSERVED',
  'WEBHOOK_URL_CONFIGURED',
  'WEBHOOK_DELIVERY_SUCCEEDED',
];

const evaluations = (events: CertificationEvent[]) =>
  events
    .filter((e): e is CertificationCheckEvaluated => e.type === 'CertificationCheckEvaluated')
    .map(({ data }) => [data.checkCode, data.trigger, data.verdict, data.resultingState]);

const states = (state: CertificationState, flowId = FLOW_1) =>
  Object.fromEntries(flowById(state, flowId).checks.map((check) => [check.checkCode, check.state]));

describe('preparing certification', () => {
  it('starts an INITIAL flow of the partner features and judges every AUTOMATED check at once', () =>
    given([])
      .when(prepare())
      .thenState((state, events) => {
        expect(events[0]).toEqual({
          type: 'CertificationFlowStarted',
          data: expect.objectContaining({
            flowId: FLOW_1,
            partnerId: PARTNER,
            flowType: 'INITIAL',
            attemptNumber: 1,
            supersedesFlowId: null,
            recertificationReason: null,
            features: ['CARD'],
            startedAt: T0.toISOString(),
          }),
        });
        expect(evaluations(events)).toEqual(
          [
            'API_AUTHENTICATION',
            'MERCHANT_CREATE',
            'MERCHANT_SUBMIT',
            'CARD_SALE',
            'CARD_DECLINE',
            'CARD_REFUND',
            'CARD_VOID',
            'IDEMPOTENT_RETRY',
            'WEBHOOK_ENDPOINT',
            'WEBHOOK_DELIVERY',
          ].map((code) => [code, 'RUN_START', 'NOT_SATISFIED', 'PENDING']),
        );
        const flow = activeFlow(state);
        expect(flow).toMatchObject({ id: FLOW_1, status: 'ACTIVE', createdAt: T0.toISOString() });
        // Missing evidence is not negative evidence: nothing fails, the review waits for its step.
        expect(new Set(Object.values(states(state)))).toEqual(new Set(['PENDING']));
        expect(flow.checks.find((c) => c.checkCode === 'API_AUTHENTICATION')).toMatchObject({
          id: checkIds(FLOW_1).API_AUTHENTICATION,
          lastRunAt: T0.toISOString(),
          failureReason: null,
          executionLogs: 'observed: none; missing: API_KEY_ISSUED, PARTNER_IDENTITY_READ',
          retryHistory: [
            {
              attempt: 1,
              trigger: 'RUN_START',
              verdict: 'NOT_SATISFIED',
              resultingState: 'PENDING',
              failureReason: null,
              executionLogs: 'observed: none; missing: API_KEY_ISSUED, PARTNER_IDENTITY_READ',
              evaluatedAt: T0.toISOString(),
              durationMs: 0,
            },
          ],
        });
      }));

  it('records the plan it started with as the baseline', () =>
    given([])
      .when(prepare())
      .thenState((state) =>
        expect(flowById(state, FLOW_1).baseline).toEqual({
          features: ['CARD'],
          checkCodes: [
            'API_AUTHENTICATION',
            'MERCHANT_CREATE',
            'MERCHANT_SUBMIT',
            'CARD_SALE',
            'CARD_DECLINE',
            'CARD_REFUND',
            'CARD_VOID',
            'IDEMPOTENT_RETRY',
            'WEBHOOK_ENDPOINT',
            'WEBHOOK_DELIVERY',
            'PCI_SCOPE_ATTESTATION',
          ],
          steps: [
            { step: 'CONNECTIVITY', label: 'Connect and authenticate', total: 1 },
            { step: 'MERCHANT_ONBOARDING', label: 'Onboard a merchant', total: 2 },
            { step: 'CARD_PAYMENTS', label: 'Process card payments', total: 5 },
            { step: 'WEBHOOKS', label: 'Receive webhooks', total: 2 },
            { step: 'COMPLIANCE_REVIEW', label: 'Compliance review', total: 1 },
          ],
        }),
      ));

  it('takes its features from the enabled feature flags', () =>
    given([], { certificationStatus: 'PENDING', enabledFeatures: ['terminals', 'ach_payments', 'recurring'] })
      .when(prepare())
      .thenState((state) => {
        const flow = activeFlow(state);
        expect(flow.features).toEqual(['CARD', 'ACH', 'TERMINAL']);
        expect(flow.checks.map((c) => c.checkCode)).toEqual(
          expect.arrayContaining(['ACH_DEBIT', 'TERMINAL_PROVISIONING', 'ACH_AUTHORIZATION_ATTESTATION']),
        );
        expect(flow.checks.map((c) => c.checkCode)).not.toContain('HPP_CHECKOUT');
      }));

  it('returns the active flow instead of starting another', () =>
    given(history([prepare()], [observe('API_KEY_ISSUED')]))
      .when(prepare(FLOW_2, T2))
      .thenState((state, events) => {
        expect(events).toEqual([]);
        expect(activeFlow(state).id).toBe(FLOW_1);
      }));

  it('refuses to start without an id for each check', () =>
    given([])
      .when({ ...prepare(), checkIds: { API_AUTHENTICATION: 'x' } } as CertificationCommand)
      .thenThrows(Error));
});

describe('facts', () => {
  it('are remembered without a flow, and a flow started later passes what they prove', () => {
    const before = history([observe('API_KEY_ISSUED', T0)], [observe('PARTNER_IDENTITY_READ', T0)]);
    expect(before.map((e) => e.type)).toEqual(['CertificationFactObserved', 'CertificationFactObserved']);
    const events = decideCertification(prepare(FLOW_1, T1), fold(before), NEW_PARTNER);
    expect(evaluations(events)[0]).toEqual(['API_AUTHENTICATION', 'RUN_START', 'SATISFIED', 'PASSED']);
    const check = flowById(fold([...before, ...events]), FLOW_1).checks[0];
    expect(check).toMatchObject({
      state: 'PASSED',
      checkedBy: 'system',
      checkedAt: T1.toISOString(),
      executionLogs: `observed: API_KEY_ISSUED at ${T0.toISOString()}, PARTNER_IDENTITY_READ at ${T0.toISOString()}; missing: none`,
    });
  });

  it('are recorded with the time they were first observed', () =>
    given([])
      .when(observe('API_KEY_ISSUED'))
      .then([
        {
          type: 'CertificationFactObserved',
          data: { partnerId: PARTNER, fact: 'API_KEY_ISSUED', observedAt: T1.toISOString() },
        },
      ]));

  it('observed again are ignored', () => {
    const events = history([observe('API_KEY_ISSUED', T0)]);
    expect(decideCertification(observe('API_KEY_ISSUED', T1), fold(events), NEW_PARTNER)).toEqual([]);
  });

  it('pass a check of the active flow once its evidence is complete, and not before', () => {
    const started = history([prepare()]);
    const first = decideCertification(observe('API_KEY_ISSUED', T1), fold(started), NEW_PARTNER);
    expect(first.map((e) => e.type)).toEqual(['CertificationFactObserved']);
    const second = decideCertification(
      observe('PARTNER_IDENTITY_READ', T2),
      fold([...started, ...first]),
      NEW_PARTNER,
    );
    expect(second).toEqual([
      {
        type: 'CertificationFactObserved',
        data: { partnerId: PARTNER, fact: 'PARTNER_IDENTITY_READ', observedAt: T2.toISOString() },
      },
      {
        type: 'CertificationCheckEvaluated',
        data: {
          flowId: FLOW_1,
          checkCode: 'API_AUTHENTICATION',
          trigger: 'EVIDENCE',
          verdict: 'SATISFIED',
          resultingState: 'PASSED',
          failureReason: null,
          executionLogs: `observed: API_KEY_ISSUED at ${T1.toISOString()}, PARTNER_IDENTITY_READ at ${T2.toISOString()}; missing: none`,
          evaluatedAt: T2.toISOString(),
          durationMs: 0,
        },
      },
    ]);
    const check = flowById(fold([...started, ...first, ...second]), FLOW_1).checks[0];
    expect(check.retryHistory.map((h) => [h.attempt, h.trigger, h.verdict])).toEqual([
      [1, 'RUN_START', 'NOT_SATISFIED'],
      [2, 'EVIDENCE', 'SATISFIED'],
    ]);
  });

  it('pass a check of a step still locked: steps guide, they do not gate evidence', () => {
    const started = history([prepare()]);
    const events = decideCertification(observe('WEBHOOK_URL_CONFIGURED'), fold(started), NEW_PARTNER);
    expect(evaluations(events)).toEqual([['WEBHOOK_ENDPOINT', 'EVIDENCE', 'SATISFIED', 'PASSED']]);
  });

  it('put the review checks before an administrator when the last automated step completes', () => {
    const almost = history(
      [prepare()],
      ...CARD_FLOW_FACTS.slice(0, -1).map((f) => [observe(f)] as [CertificationCommand]),
    );
    expect(states(fold(almost)).PCI_SCOPE_ATTESTATION).toBe('PENDING');
    const events = decideCertification(observe('WEBHOOK_DELIVERY_SUCCEEDED', T2), fold(almost), NEW_PARTNER);
    expect(evaluations(events)).toEqual([
      ['WEBHOOK_DELIVERY', 'EVIDENCE', 'SATISFIED', 'PASSED'],
      ['PCI_SCOPE_ATTESTATION', 'STEP_UNLOCKED', 'NOT_SATISFIED', 'AWAITING_ADMIN_REVIEW'],
    ]);
    const state = fold([...almost, ...events]);
    expect(states(state).PCI_SCOPE_ATTESTATION).toBe('AWAITING_ADMIN_REVIEW');
    // Reviews wait for an administrator: nothing the partner does passes them.
    expect(activeFlow(state).status).toBe('ACTIVE');
  });

  it('put the review checks before an administrator at the start when every fact is already known', () => {
    const facts = history(...CARD_FLOW_FACTS.map((f) => [observe(f, T0)] as [CertificationCommand]));
    const events = decideCertification(prepare(FLOW_1, T1), fold(facts), NEW_PARTNER);
    expect(evaluations(events).at(-1)).toEqual([
      'PCI_SCOPE_ATTESTATION',
      'STEP_UNLOCKED',
      'NOT_SATISFIED',
      'AWAITING_ADMIN_REVIEW',
    ]);
    expect(evaluations(events).filter(([, , verdict]) => verdict === 'SATISFIED')).toHaveLength(10);
  });
});

describe('completing certification', () => {
  it('closes the active flow, waiving every unresolved check for the operator', () => {
    const events = history([prepare()], [observe('API_KEY_ISSUED')], [observe('PARTNER_IDENTITY_READ')]);
    const completion = decideCertification(certify(), fold(events), CERTIFIED);
    expect(completion).toEqual([
      {
        type: 'CertificationFlowCompleted',
        data: {
          flowId: FLOW_1,
          outcome: 'CERTIFIED',
          completedAt: T2.toISOString(),
          completedBy: 'operator:ops@platform.test',
          waivedCheckCodes: [
            'MERCHANT_CREATE',
            'MERCHANT_SUBMIT',
            'CARD_SALE',
            'CARD_DECLINE',
            'CARD_REFUND',
            'CARD_VOID',
            'IDEMPOTENT_RETRY',
            'WEBHOOK_ENDPOINT',
            'WEBHOOK_DELIVERY',
            'PCI_SCOPE_ATTESTATION',
          ],
          waiverReason: OPERATOR_WAIVER_REASON,
        },
      },
    ]);
    const state = fold([...events, ...completion]);
    expect(state).toMatchObject({ activeFlowId: null, latestCompletedFlowId: FLOW_1 });
    const flow = latestCompletedFlow(state);
    expect(flow).toMatchObject({ status: 'COMPLETED', completedAt: T2.toISOString() });
    expect(flow.checks[0]).toMatchObject({ state: 'PASSED', checkedBy: 'system', waiverReason: null });
    expect(flow.checks[1]).toMatchObject({
      state: 'WAIVED',
      waiverReason: 'certified by platform operator',
      checkedBy: 'operator:ops@platform.test',
      checkedAt: T2.toISOString(),
    });
  });

  it('does nothing when the operator certifies a partner without a flow', () =>
    given([], CERTIFIED).when(certify()).then([]));

  it('does nothing once the flow is completed', () => {
    const events = history([prepare()], [certify(), CERTIFIED]);
    expect(decideCertification(certify(), fold(events), CERTIFIED)).toEqual([]);
  });
});

describe('re-certification', () => {
  const certifiedOnce = () => history([prepare()], [certify(T0), CERTIFIED]);

  it('is requested for a certified partner', () => {
    const events = certifiedOnce();
    const requested = decideCertification(requestRecertification(), fold(events), CERTIFIED);
    expect(requested).toEqual([
      {
        type: 'RecertificationRequested',
        data: {
          requestId: REQUEST_1,
          partnerId: PARTNER,
          requestedFeatures: ['ACH'],
          message: 'ACH payments were enabled',
          createdAt: T1.toISOString(),
        },
      },
    ]);
    expect(currentRecertificationRequest(fold([...events, ...requested]))).toMatchObject({
      id: REQUEST_1,
      state: 'PENDING',
    });
  });

  it.each([
    ['the partner is not certified', () => history([prepare()]), NEW_PARTNER, requestRecertification()],
    [
      'a request is already pending',
      () => history([prepare()], [certify(), CERTIFIED], [requestRecertification(), CERTIFIED]),
      CERTIFIED,
      requestRecertification(REQUEST_2, ['HPP']),
    ],
    [
      'the request was already made',
      () =>
        history(
          [prepare()],
          [certify(), CERTIFIED],
          [requestRecertification(), CERTIFIED],
          [prepare(FLOW_2), CERTIFIED],
        ),
      CERTIFIED,
      requestRecertification(),
    ],
    [
      'no known feature is requested',
      () => history([prepare()], [certify(), CERTIFIED]),
      CERTIFIED,
      requestRecertification(REQUEST_1, ['FAX']),
    ],
  ] as [string, () => CertificationEvent[], CertificationPartner, CertificationCommand][])(
    'is not requested when %s',
    (_case, events, partner, command) =>
      expect(decideCertification(command, fold(events()), partner)).toEqual([]),
  );

  it('starts a RECERTIFICATION flow that supersedes the last one and fulfils the request', () => {
    const events = history(
      [prepare()],
      [observe('API_KEY_ISSUED', T0)],
      [observe('PARTNER_IDENTITY_READ', T0)],
      [certify(T0), CERTIFIED],
      [requestRecertification(), CERTIFIED],
    );
    const started = decideCertification(prepare(FLOW_2, T2), fold(events), CERTIFIED);
    expect(started[0]).toEqual({
      type: 'CertificationFlowStarted',
      data: expect.objectContaining({
        flowId: FLOW_2,
        flowType: 'RECERTIFICATION',
        attemptNumber: 2,
        supersedesFlowId: FLOW_1,
        recertificationReason: 'ACH payments were enabled',
        // The flag may not be on yet: the request's features are certified all the same.
        features: ['CARD', 'ACH'],
      }),
    });
    expect(started[1]).toEqual({
      type: 'RecertificationRequestFulfilled',
      data: { requestId: REQUEST_1, flowId: FLOW_2, fulfilledAt: T2.toISOString() },
    });
    // Facts observed during the first flow still count.
    expect(evaluations(started)[0]).toEqual(['API_AUTHENTICATION', 'RUN_START', 'SATISFIED', 'PASSED']);
    const state = fold([...events, ...started]);
    expect(currentRecertificationRequest(state)).toMatchObject({
      state: 'FULFILLED',
      fulfilledByFlowId: FLOW_2,
    });
    // Until the new flow completes, the old one is still the partner's certification.
    expect(latestCompletedFlow(state)).toMatchObject({ id: FLOW_1, status: 'COMPLETED' });
    expect(activeFlow(state).checks.map((c) => c.id)).not.toContain(flowById(state, FLOW_1).checks[0].id);
  });

  it('numbers attempts and chains each flow to the one it supersedes', () => {
    const events = history(
      [prepare()],
      [certify(T0), CERTIFIED],
      [requestRecertification(), CERTIFIED],
      [prepare(FLOW_2, T1), CERTIFIED],
      [certify(T1), CERTIFIED],
    );
    const afterTwo = fold(events);
    expect(flowById(afterTwo, FLOW_1).status).toBe('SUPERSEDED');
    expect(latestCompletedFlow(afterTwo)).toMatchObject({ id: FLOW_2, status: 'COMPLETED' });

    const third = decideCertification(prepare(FLOW_3, T2), afterTwo, CERTIFIED);
    expect(third[0]).toEqual({
      type: 'CertificationFlowStarted',
      data: expect.objectContaining({
        flowType: 'RECERTIFICATION',
        attemptNumber: 3,
        supersedesFlowId: FLOW_2,
        // No pending request: nothing says why.
        recertificationReason: null,
        features: ['CARD'],
      }),
    });
    expect(third.map((e) => e.type)).not.toContain('RecertificationRequestFulfilled');
  });

  it('starts an INITIAL flow when the operator certified without one, fulfilling the request', () => {
    const events = history([certify(T0), CERTIFIED], [requestRecertification(), CERTIFIED]);
    const started = decideCertification(prepare(FLOW_1, T2), fold(events), CERTIFIED);
    expect(started[0].data).toMatchObject({
      flowType: 'INITIAL',
      attemptNumber: 1,
      supersedesFlowId: null,
      recertificationReason: null,
      features: ['CARD', 'ACH'],
    });
    expect(started[1].type).toBe('RecertificationRequestFulfilled');
  });
});
