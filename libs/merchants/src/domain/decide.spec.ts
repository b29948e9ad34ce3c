import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { decide, type MerchantCommand } from './decide';
import {
  evolve,
  initialState,
  type Merchant,
  type MerchantStateOrNone,
  type MerchantStreamEvent,
} from './merchant';
import type { MerchantEvent, MerchantEventType } from './merchant-events';
import {
  ClarificationMessageRequired,
  GoLiveGateFailed,
  MerchantAlreadyExists,
  MerchantNotFound,
  ResubmissionLimitReached,
} from './merchant-errors';
import {
  MERCHANT_STATES,
  MERCHANT_TRANSITIONS,
  type MerchantAction,
  type MerchantState,
} from './merchant-states';

const ID = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-02T10:00:00.000Z');
const T2 = new Date('2026-11-03T10:00:00.000Z');
const ids = { merchantId: ID, partnerId: PARTNER };
const given = deciderSpec({ decide, evolve, initialState });

const create: MerchantCommand = {
  type: 'CreateMerchant',
  merchantId: ID,
  partnerId: PARTNER,
  businessName: 'Blue Bottle Dental',
  contactEmail: 'ops@bluebottle.test',
  contactName: 'Dana Dent',
  merchantCategoryCode: '8021',
  hipaaBaaStatus: 'REQUIRED',
  at: T0,
};
const created = (resubmissionLimit = 3): MerchantEvent => ({
  type: 'MerchantCreated',
  data: {
    ...ids,
    businessName: 'Blue Bottle Dental',
    contactEmail: 'ops@bluebottle.test',
    contactName: 'Dana Dent',
    authorizedSignerName: null,
    authorizedSignerEmail: null,
    merchantCategoryCode: '8021',
    channel: 'CNP_ONLY',
    locationCount: null,
    businessState: null,
    hipaaBaaStatus: 'REQUIRED',
    resubmissionLimit,
    createdAt: T0.toISOString(),
  },
});

const PASSING_GATE = {
  checks: [
    { code: 'partner_certified', passed: true },
    { code: 'probe_transaction', passed: true },
  ],
};

/** A valid command for each action (every rule satisfied), at `at`. */
function commandFor(action: MerchantAction, at = T1): MerchantCommand {
  const base = { merchantId: ID, at };
  switch (action) {
    case 'submit':
      return { ...base, type: 'SubmitMerchant' };
    case 'update':
      return { ...base, type: 'UpdateMerchant', changes: { businessName: 'Blue Bottle Dental Group' } };
    case 'respond_clarification':
      return { ...base, type: 'RespondToMerchantClarification', response: 'Attached the lease.' };
    case 'resubmit':
      return { ...base, type: 'ResubmitMerchant' };
    case 'resend_envelope':
      return { ...base, type: 'ResendMerchantEnvelope' };
    case 'start_review':
      return { ...base, type: 'StartMerchantReview' };
    case 'approve_precheck':
      return { ...base, type: 'ApproveMerchantPrecheck' };
    case 'complete_signature':
      return { ...base, type: 'CompleteMerchantSignature' };
    case 'decline_signature':
      return { ...base, type: 'DeclineMerchantSignature' };
    case 'pass_underwriting':
      return { ...base, type: 'PassMerchantUnderwriting' };
    case 'fail_underwriting':
      return { ...base, type: 'FailMerchantUnderwriting', rejectionReasonCode: 'REJ_003' };
    case 'request_clarification':
      return { ...base, type: 'RequestMerchantClarification', clarificationMessage: 'Proof of address?' };
    case 'start_provisioning':
      return { ...base, type: 'StartMerchantProvisioning' };
    case 'fail_provisioning':
      return { ...base, type: 'FailMerchantProvisioning', step: 'gateway_registration', error: 'timeout' };
    case 'retry_provisioning':
      return { ...base, type: 'RetryMerchantProvisioning' };
    case 'complete_provisioning':
      return {
        ...base,
        type: 'CompleteMerchantProvisioning',
        processorMids: [{ processor: 'tsys', mid: '887000003193' }],
        gatewayMerchantId: 'gw_123',
      };
    case 'go_live':
      return { ...base, type: 'TakeMerchantLive', gate: PASSING_GATE };
    case 'suspend':
      return { ...base, type: 'SuspendMerchant', reason: 'chargeback ratio' };
    case 'reactivate':
      return { ...base, type: 'ReactivateMerchant' };
    case 'close':
      return { ...base, type: 'CloseMerchant', reason: 'merchant request' };
  }
}

/** The path from a new DRAFT merchant to each state. */
const PATHS: Record<MerchantState, MerchantAction[]> = {
  DRAFT: [],
  SUBMITTED: ['submit'],
  REVIEWING: ['submit', 'start_review'],
  AWAITING_MERCHANT_SIGNATURE: ['submit', 'start_review', 'approve_precheck'],
  UNDERWRITING: ['submit', 'start_review', 'approve_precheck', 'complete_signature'],
  APPROVED: ['submit', 'start_review', 'approve_precheck', 'complete_signature', 'pass_underwriting'],
  CONFIGURING: [
    'submit',
    'start_review',
    'approve_precheck',
    'complete_signature',
    'pass_underwriting',
    'start_provisioning',
  ],
  CONFIG_FAILED: [
    'submit',
    'start_review',
    'approve_precheck',
    'complete_signature',
    'pass_underwriting',
    'start_provisioning',
    'fail_provisioning',
  ],
  ACTIVE: [
    'submit',
    'start_review',
    'approve_precheck',
    'complete_signature',
    'pass_underwriting',
    'start_provisioning',
    'complete_provisioning',
  ],
  LIVE: [
    'submit',
    'start_review',
    'approve_precheck',
    'complete_signature',
    'pass_underwriting',
    'start_provisioning',
    'complete_provisioning',
    'go_live',
  ],
  REJECTED: ['submit', 'start_review', 'approve_precheck', 'complete_signature', 'fail_underwriting'],
  AWAITING_CLARIFICATION: ['submit', 'start_review', 'request_clarification'],
  SUSPENDED: [
    'submit',
    'start_review',
    'approve_precheck',
    'complete_signature',
    'pass_underwriting',
    'start_provisioning',
    'complete_provisioning',
    'go_live',
    'suspend',
  ],
  CLOSED: [
    'submit',
    'start_review',
    'approve_precheck',
    'complete_signature',
    'pass_underwriting',
    'start_provisioning',
    'complete_provisioning',
    'go_live',
    'close',
  ],
};

/** Events produced by the decider itself along a path of actions (after `created()`). */
function historyOf(actions: MerchantAction[], first: MerchantEvent = created()): MerchantEvent[] {
  const history: MerchantEvent[] = [first];
  let state: MerchantStateOrNone = evolve(null, first);
  for (const action of actions) {
    for (const event of decide(commandFor(action, T0), state)) {
      history.push(event as MerchantEvent);
      state = evolve(state, event);
    }
  }
  return history;
}
const historyTo = (state: MerchantState) => historyOf(PATHS[state]);
const fold = (events: MerchantStreamEvent[]): Merchant => events.reduce(evolve, initialState()) as Merchant;

/**
 * The expected machine, written out independently of MERCHANT_TRANSITIONS: for each action, the
 * event it records and the (from → to) moves it allows. Every other pair must be refused.
 */
const everyStateBut = (...excluded: MerchantState[]) => MERCHANT_STATES.filter((s) => !excluded.includes(s));
const EXPECTED: Record<
  MerchantAction,
  { event: MerchantEventType; moves: Partial<Record<MerchantState, MerchantState>> }
> = {
  submit: { event: 'MerchantSubmitted', moves: { DRAFT: 'SUBMITTED' } },
  update: {
    event: 'MerchantUpdated',
    moves: { DRAFT: 'DRAFT', AWAITING_CLARIFICATION: 'AWAITING_CLARIFICATION' },
  },
  respond_clarification: {
    event: 'MerchantClarificationResponded',
    moves: { AWAITING_CLARIFICATION: 'REVIEWING' },
  },
  resubmit: { event: 'MerchantResubmitted', moves: { REJECTED: 'REVIEWING' } },
  resend_envelope: {
    event: 'MerchantEnvelopeResent',
    moves: { AWAITING_MERCHANT_SIGNATURE: 'AWAITING_MERCHANT_SIGNATURE' },
  },
  start_review: { event: 'MerchantReviewStarted', moves: { SUBMITTED: 'REVIEWING' } },
  approve_precheck: {
    event: 'MerchantPrecheckApproved',
    moves: { REVIEWING: 'AWAITING_MERCHANT_SIGNATURE' },
  },
  complete_signature: {
    event: 'MerchantSignatureCompleted',
    moves: { AWAITING_MERCHANT_SIGNATURE: 'UNDERWRITING' },
  },
  decline_signature: {
    event: 'MerchantSignatureDeclined',
    moves: { AWAITING_MERCHANT_SIGNATURE: 'REJECTED' },
  },
  pass_underwriting: { event: 'MerchantUnderwritingPassed', moves: { UNDERWRITING: 'APPROVED' } },
  fail_underwriting: { event: 'MerchantUnderwritingFailed', moves: { UNDERWRITING: 'REJECTED' } },
  request_clarification: {
    event: 'MerchantClarificationRequested',
    moves: { REVIEWING: 'AWAITING_CLARIFICATION', UNDERWRITING: 'AWAITING_CLARIFICATION' },
  },
  start_provisioning: { event: 'MerchantProvisioningStarted', moves: { APPROVED: 'CONFIGURING' } },
  fail_provisioning: { event: 'MerchantProvisioningFailed', moves: { CONFIGURING: 'CONFIG_FAILED' } },
  retry_provisioning: { event: 'MerchantProvisioningRetried', moves: { CONFIG_FAILED: 'CONFIGURING' } },
  complete_provisioning: { event: 'MerchantProvisioned', moves: { CONFIGURING: 'ACTIVE' } },
  go_live: { event: 'MerchantWentLive', moves: { ACTIVE: 'LIVE' } },
  suspend: {
    event: 'MerchantSuspended',
    moves: Object.fromEntries(
      everyStateBut('DRAFT', 'SUSPENDED', 'CLOSED').map((s) => [s, 'SUSPENDED' as const]),
    ),
  },
  // The SUSPENDED history was suspended from LIVE.
  reactivate: { event: 'MerchantReactivated', moves: { SUSPENDED: 'LIVE' } },
  close: {
    event: 'MerchantClosed',
    moves: Object.fromEntries(everyStateBut('CLOSED').map((s) => [s, 'CLOSED' as const])),
  },
};

describe('the merchant state machine: every (state, action) pair', () => {
  it('the paths reach the states they are named after', () => {
    for (const state of MERCHANT_STATES) expect(fold(historyTo(state)).state).toBe(state);
  });

  it('the table covers exactly the expected actions', () =>
    expect(Object.keys(MERCHANT_TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED).sort()));

  const pairs = MERCHANT_STATES.flatMap((from) =>
    (Object.keys(EXPECTED) as MerchantAction[]).map((action) => ({ from, action })),
  );
  it.each(pairs)('$action from $from', ({ from, action }) => {
    const expected = EXPECTED[action];
    const to = expected.moves[from];
    const when = given(historyTo(from)).when(commandFor(action));
    if (to) {
      when.thenState((merchant, events) => {
        expect(events.map((e) => e.type)).toEqual([expected.event]);
        expect(merchant?.state).toBe(to);
      });
    } else {
      when.thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from, action });
    }
  });
});

describe('create', () => {
  it('creates a DRAFT merchant with the defaults', () => given([]).when(create).then([created()]));

  it('starts in DRAFT, without SAQ type, envelope or resubmissions, at version 1', () =>
    given([])
      .when({
        ...create,
        authorizedSignerName: 'Sam Signer',
        authorizedSignerEmail: 'sam@bluebottle.test',
        channel: 'OMNICHANNEL',
        locationCount: 2,
        resubmissionLimit: 5,
      })
      .thenState((merchant) =>
        expect(merchant).toMatchObject({
          state: 'DRAFT',
          channel: 'OMNICHANNEL',
          locationCount: 2,
          businessState: null,
          authorizedSignerEmail: 'sam@bluebottle.test',
          pciSaqType: null,
          esignEnvelope: null,
          resubmissionCount: 0,
          resubmissionLimit: 5,
          processorMids: [],
          submittedAt: null,
          createdAt: T0.toISOString(),
          version: 1,
        }),
      ));

  it('refuses to create the same merchant twice', () =>
    given([created()]).when(create).thenThrows(MerchantAlreadyExists, { code: 'merchant_already_exists' }));

  it('answers merchant_not_found for any other command on an unknown merchant', () =>
    given([]).when(commandFor('submit')).thenThrows(MerchantNotFound, { code: 'merchant_not_found' }));
});

describe('update (PATCH)', () => {
  it('records only the fields that change', () =>
    given([created()])
      .when({
        type: 'UpdateMerchant',
        merchantId: ID,
        changes: { businessName: 'Blue Bottle Dental', contactName: 'Dee Dent', locationCount: 3 },
        at: T1,
      })
      .then([
        {
          type: 'MerchantUpdated',
          data: { ...ids, contactName: 'Dee Dent', locationCount: 3, updatedAt: T1.toISOString() },
        },
      ]));

  it('records nothing when nothing changes', () =>
    given([created()])
      .when({
        type: 'UpdateMerchant',
        merchantId: ID,
        changes: { businessName: 'Blue Bottle Dental' },
        at: T1,
      })
      .then([]));

  it('moves the BAA status with a new MCC', () =>
    given([created()])
      .when({
        type: 'UpdateMerchant',
        merchantId: ID,
        changes: { merchantCategoryCode: '5812', hipaaBaaStatus: 'NOT_REQUIRED' },
        at: T1,
      })
      .thenState((merchant) =>
        expect(merchant).toMatchObject({
          merchantCategoryCode: '5812',
          hipaaBaaStatus: 'NOT_REQUIRED',
          version: 2,
        }),
      ));

  it('is allowed while AWAITING_CLARIFICATION, and keeps the state', () =>
    given(historyTo('AWAITING_CLARIFICATION'))
      .when({
        type: 'UpdateMerchant',
        merchantId: ID,
        changes: { contactEmail: 'new@bluebottle.test' },
        at: T1,
      })
      .thenState((merchant, events) => {
        expect(events).toHaveLength(1);
        expect(merchant).toMatchObject({
          state: 'AWAITING_CLARIFICATION',
          contactEmail: 'new@bluebottle.test',
        });
      }));

  it('is refused once submitted, even when it would change nothing', () =>
    given(historyTo('SUBMITTED'))
      .when({ type: 'UpdateMerchant', merchantId: ID, changes: {}, at: T1 })
      .thenThrows(InvalidStateTransition, { from: 'SUBMITTED', action: 'update' }));
});

describe('clarification', () => {
  it.each([undefined, null, '', '   '])('request_clarification without a message (%p) is 422', (message) =>
    given(historyTo('REVIEWING'))
      .when({ type: 'RequestMerchantClarification', merchantId: ID, clarificationMessage: message, at: T1 })
      .thenThrows(ClarificationMessageRequired, { code: 'clarification_message_required' }),
  );

  it('a state that forbids the request answers 409 before the message is looked at', () =>
    given(historyTo('APPROVED'))
      .when({ type: 'RequestMerchantClarification', merchantId: ID, at: T1 })
      .thenThrows(InvalidStateTransition, { from: 'APPROVED', action: 'request_clarification' }));

  it('from UNDERWRITING: records the message and where it was asked from', () =>
    given(historyTo('UNDERWRITING'))
      .when({
        type: 'RequestMerchantClarification',
        merchantId: ID,
        clarificationMessage: 'Bank letter?',
        at: T1,
      })
      .thenState((merchant, events) => {
        expect(events).toEqual([
          {
            type: 'MerchantClarificationRequested',
            data: {
              ...ids,
              clarificationMessage: 'Bank letter?',
              requestedFrom: 'UNDERWRITING',
              clarificationRequestedAt: T1.toISOString(),
            },
          },
        ]);
        expect(merchant).toMatchObject({
          state: 'AWAITING_CLARIFICATION',
          clarificationMessage: 'Bank letter?',
        });
      }));

  it('the response goes back to REVIEWING, records the text and clears the open request', () =>
    given(historyTo('AWAITING_CLARIFICATION'))
      .when({ type: 'RespondToMerchantClarification', merchantId: ID, response: 'Done.', at: T1 })
      .thenState((merchant, events) => {
        expect(events).toEqual([
          {
            type: 'MerchantClarificationResponded',
            data: { ...ids, response: 'Done.', clarificationRespondedAt: T1.toISOString() },
          },
        ]);
        expect(merchant).toMatchObject({ state: 'REVIEWING', clarificationMessage: null });
      }));
});

describe('rejection and resubmission', () => {
  const rejectedPath = PATHS.REJECTED;
  const resubmitAndRejectAgain: MerchantAction[] = [
    'resubmit',
    'approve_precheck',
    'complete_signature',
    'fail_underwriting',
  ];

  it('fail_underwriting without a reason still sets one (spec: code and reason are set)', () =>
    given(historyTo('UNDERWRITING'))
      .when({ type: 'FailMerchantUnderwriting', merchantId: ID, at: T1 })
      .thenState((merchant) =>
        expect(merchant).toMatchObject({
          state: 'REJECTED',
          rejectionReasonCode: 'REJ_001',
          rejectionReason: 'Underwriting did not pass.',
        }),
      ));

  it('fail_underwriting without a code uses REJ_001', () =>
    given(historyTo('UNDERWRITING'))
      .when({ type: 'FailMerchantUnderwriting', merchantId: ID, rejectionReason: 'thin file', at: T1 })
      .thenState((merchant) =>
        expect(merchant).toMatchObject({
          state: 'REJECTED',
          rejectionReasonCode: 'REJ_001',
          rejectionReason: 'thin file',
        }),
      ));

  it('a declined envelope rejects with REJ_008 and marks the envelope DECLINED', () =>
    given(historyTo('AWAITING_MERCHANT_SIGNATURE'))
      .when({ type: 'DeclineMerchantSignature', merchantId: ID, at: T1 })
      .thenState((merchant) =>
        expect(merchant).toMatchObject({
          state: 'REJECTED',
          rejectionReasonCode: 'REJ_008',
          esignEnvelope: { status: 'DECLINED', lastStatusAt: T1.toISOString() },
        }),
      ));

  it('resubmitting counts, goes back to REVIEWING and clears the rejection', () =>
    given(historyTo('REJECTED'))
      .when({ type: 'ResubmitMerchant', merchantId: ID, message: 'fixed', at: T1 })
      .thenState((merchant, events) => {
        expect(events).toEqual([
          {
            type: 'MerchantResubmitted',
            data: { ...ids, resubmissionCount: 1, message: 'fixed', resubmittedAt: T1.toISOString() },
          },
        ]);
        expect(merchant).toMatchObject({
          state: 'REVIEWING',
          resubmissionCount: 1,
          rejectionReasonCode: null,
          rejectionReason: null,
          submittedAt: T0.toISOString(),
        });
      }));

  it('the default limit allows three resubmissions and refuses the fourth', () => {
    const threeTimes = [...resubmitAndRejectAgain, ...resubmitAndRejectAgain, ...resubmitAndRejectAgain];
    const history = historyOf([...rejectedPath, ...threeTimes]);
    expect(fold(history)).toMatchObject({ state: 'REJECTED', resubmissionCount: 3, resubmissionLimit: 3 });
    given(history).when(commandFor('resubmit')).thenThrows(ResubmissionLimitReached, {
      code: 'resubmission_limit_reached',
      resubmissionCount: 3,
      resubmissionLimit: 3,
    });
  });

  it('a limit of 1 allows exactly one resubmission', () => {
    const once = historyOf(rejectedPath, created(1));
    given(once)
      .when(commandFor('resubmit'))
      .thenState((merchant) => expect(merchant).toMatchObject({ state: 'REVIEWING', resubmissionCount: 1 }));
    given(historyOf([...rejectedPath, ...resubmitAndRejectAgain], created(1)))
      .when(commandFor('resubmit'))
      .thenThrows(ResubmissionLimitReached);
  });

  it('a limit of 0 allows none', () =>
    given(historyOf(rejectedPath, created(0)))
      .when(commandFor('resubmit'))
      .thenThrows(ResubmissionLimitReached));
});

describe('signature envelope', () => {
  it('approve_precheck sends it', () =>
    given(historyTo('REVIEWING'))
      .when(commandFor('approve_precheck', T1))
      .thenState((merchant) =>
        expect(merchant?.esignEnvelope).toEqual({
          status: 'SENT',
          sentAt: T1.toISOString(),
          lastStatusAt: T1.toISOString(),
          reissueCount: 0,
        }),
      ));

  it('each resend counts and refreshes sent_at and last_status_at', () => {
    const sent = historyTo('AWAITING_MERCHANT_SIGNATURE');
    const history = [...sent, ...decide(commandFor('resend_envelope', T1), fold(sent))];
    expect(fold(history).esignEnvelope?.reissueCount).toBe(1);
    given(history)
      .when(commandFor('resend_envelope', T2))
      .thenState((merchant, events) => {
        expect(events).toEqual([
          {
            type: 'MerchantEnvelopeResent',
            data: { ...ids, reissueCount: 2, envelopeResentAt: T2.toISOString() },
          },
        ]);
        expect(merchant).toMatchObject({
          state: 'AWAITING_MERCHANT_SIGNATURE',
          esignEnvelope: {
            status: 'SENT',
            sentAt: T2.toISOString(),
            lastStatusAt: T2.toISOString(),
            reissueCount: 2,
          },
        });
      });
  });

  it('completing the signature marks it COMPLETED', () =>
    given(historyTo('AWAITING_MERCHANT_SIGNATURE'))
      .when(commandFor('complete_signature', T2))
      .thenState((merchant) =>
        expect(merchant?.esignEnvelope).toMatchObject({
          status: 'COMPLETED',
          lastStatusAt: T2.toISOString(),
        }),
      ));
});

describe('provisioning', () => {
  it('records the failed step; a retry resumes there', () =>
    given(historyTo('CONFIG_FAILED'))
      .when(commandFor('retry_provisioning'))
      .thenState((merchant, events) => {
        expect(events).toEqual([
          {
            type: 'MerchantProvisioningRetried',
            data: { ...ids, resumeAtStep: 'gateway_registration', provisioningRetriedAt: T1.toISOString() },
          },
        ]);
        expect(merchant).toMatchObject({
          state: 'CONFIGURING',
          failedProvisioningStep: 'gateway_registration',
        });
      }));

  it('completion assigns the processor MIDs and the gateway merchant id', () =>
    given(historyTo('CONFIGURING'))
      .when(commandFor('complete_provisioning'))
      .thenState((merchant) =>
        expect(merchant).toMatchObject({
          state: 'ACTIVE',
          processorMids: [{ processor: 'tsys', mid: '887000003193' }],
          gatewayMerchantId: 'gw_123',
          failedProvisioningStep: null,
        }),
      ));
});

describe('go-live gate', () => {
  it('any failing check is 422 go_live_gate_failed naming only the failing codes', () =>
    given(historyTo('ACTIVE'))
      .when({
        type: 'TakeMerchantLive',
        merchantId: ID,
        gate: {
          checks: [
            { code: 'partner_certified', passed: false, detail: 'partner is PENDING' },
            { code: 'probe_transaction', passed: true },
            { code: 'saq_recorded', passed: false },
          ],
        },
        at: T1,
      })
      .thenThrows(GoLiveGateFailed, {
        code: 'go_live_gate_failed',
        failingCodes: ['partner_certified', 'saq_recorded'],
        errors: [
          { field: 'go_live_gate.partner_certified', message: 'partner is PENDING' },
          { field: 'go_live_gate.saq_recorded', message: 'check not passed' },
        ],
      }));

  it('a passing gate goes LIVE and records the checks', () =>
    given(historyTo('ACTIVE'))
      .when(commandFor('go_live'))
      .then([
        {
          type: 'MerchantWentLive',
          data: {
            ...ids,
            gateChecks: ['partner_certified', 'probe_transaction'],
            wentLiveAt: T1.toISOString(),
          },
        },
      ]));

  it('the state is checked first: go_live from CONFIGURING is 409 even with a failing gate', () =>
    given(historyTo('CONFIGURING'))
      .when({
        type: 'TakeMerchantLive',
        merchantId: ID,
        gate: { checks: [{ code: 'x', passed: false }] },
        at: T1,
      })
      .thenThrows(InvalidStateTransition, { from: 'CONFIGURING', action: 'go_live' }));
});

describe('suspend and reactivate', () => {
  it.each(['REJECTED', 'CONFIG_FAILED', 'LIVE', 'AWAITING_MERCHANT_SIGNATURE'] as const)(
    'from %s: suspended with the reason, reactivated back into %s',
    (from) => {
      const history = historyTo(from);
      const suspended = decide(commandFor('suspend'), fold(history));
      expect(suspended).toEqual([
        {
          type: 'MerchantSuspended',
          data: { ...ids, suspendedFrom: from, reason: 'chargeback ratio', suspendedAt: T1.toISOString() },
        },
      ]);
      expect(fold([...history, ...suspended])).toMatchObject({
        state: 'SUSPENDED',
        suspendedFrom: from,
        restrictionReason: 'chargeback ratio',
      });
      given([...history, ...suspended])
        .when(commandFor('reactivate', T2))
        .thenState((merchant, events) => {
          expect(events).toEqual([
            {
              type: 'MerchantReactivated',
              data: { ...ids, restoredState: from, reactivatedAt: T2.toISOString() },
            },
          ]);
          expect(merchant).toMatchObject({ state: from, suspendedFrom: null, restrictionReason: null });
        });
    },
  );

  it('a CONFIG_FAILED merchant reactivated can still retry at its failed step', () => {
    const history = historyOf([...PATHS.CONFIG_FAILED, 'suspend', 'reactivate']);
    given(history)
      .when(commandFor('retry_provisioning'))
      .thenState((merchant) => expect(merchant?.state).toBe('CONFIGURING'));
  });

  it('a suspended merchant can be closed', () =>
    given(historyTo('SUSPENDED'))
      .when(commandFor('close'))
      .thenState((merchant) => expect(merchant).toMatchObject({ state: 'CLOSED', suspendedFrom: null })));
});

describe('CLOSED is terminal', () => {
  it.each(Object.keys(MERCHANT_TRANSITIONS) as MerchantAction[])('%s from CLOSED is 409', (action) =>
    given(historyTo('CLOSED'))
      .when(commandFor(action))
      .thenThrows(InvalidStateTransition, { from: 'CLOSED', action }),
  );

  it('records the state it was closed from and the reason', () =>
    given(historyTo('REJECTED'))
      .when(commandFor('close'))
      .thenState((merchant, events) => {
        expect(events).toEqual([
          {
            type: 'MerchantClosed',
            data: { ...ids, closedFrom: 'REJECTED', reason: 'merchant request', closedAt: T1.toISOString() },
          },
        ]);
        expect(merchant).toMatchObject({ state: 'CLOSED', restrictionReason: 'merchant request' });
      }));
});

describe('version', () => {
  it('is the number of events', () => {
    const history = historyTo('LIVE');
    expect(fold(history).version).toBe(history.length);
    expect(history).toHaveLength(9);
  });

  it('submitted_at is the first submission', () =>
    expect(fold(historyTo('SUBMITTED')).submittedAt).toBe(T0.toISOString()));
});
