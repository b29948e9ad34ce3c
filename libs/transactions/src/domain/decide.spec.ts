import { InvalidStateTransition } from '../../../platform/src/problem';
import { decide, type TransactionCommand } from './decide';
import { evolve, type Transaction, type TransactionOrNone } from './transaction';
import {
  AmountExceedsRefundable,
  NachaReversalWindowExpired,
  TransactionNotFound,
} from './transaction-errors';
import type { TransactionEvent, TransactionInitiated } from './transaction-events';
import {
  canTransition,
  RAILS,
  TRANSACTION_ACTIONS,
  TRANSACTION_STATES,
  type Rail,
  type TransactionAction,
  type TransactionState,
  type TransactionType,
} from './transaction-states';

/**
 * The allowed moves, written out from the spec's table and docs/transactions.md (not read from
 * the code): `rail action: from… → to`. Every (rail, state, action) not listed must be refused.
 */
const ALLOWED: Record<string, string> = {
  'CARD approve': 'INITIATED',
  'ACH approve': 'INITIATED',
  'CARD decline': 'INITIATED',
  'ACH decline': 'INITIATED',
  'CARD record_outcome_unknown': 'INITIATED',
  'ACH record_outcome_unknown': 'INITIATED',
  'CARD request_three_ds': 'INITIATED',
  'CARD complete_three_ds': 'THREE_DS_PENDING',
  'CARD time_out_three_ds': 'THREE_DS_PENDING',
  'CARD capture': 'AUTHORIZED',
  'CARD settle': 'CAPTURED',
  'ACH settle_ach': 'SUBMITTED',
  'CARD void': 'AUTHORIZED CAPTURED',
  'CARD auth_reversal': 'AUTHORIZED',
  'CARD refund': 'SETTLED PARTIALLY_REFUNDED',
  'CARD partial_refund': 'SETTLED PARTIALLY_REFUNDED',
  'ACH ach_void': 'SUBMITTED',
  'ACH ach_refund': 'SETTLED',
  'ACH ach_reversal': 'SETTLED',
  'ACH ach_return': 'SUBMITTED SETTLED',
  'CARD open_dispute': 'SETTLED',
  'CARD chargeback_lost': 'DISPUTED',
  'CARD chargeback_won': 'DISPUTED',
};

function allowedFrom(rail: Rail, action: TransactionAction): string[] {
  return (ALLOWED[`${rail} ${action}`] ?? '').split(' ').filter(Boolean);
}

describe('transaction state table: every (rail, state, action)', () => {
  const cases: [Rail, TransactionState, TransactionAction][] = [];
  for (const rail of RAILS)
    for (const state of TRANSACTION_STATES)
      for (const action of TRANSACTION_ACTIONS) cases.push([rail, state, action]);

  it.each(cases)('%s %s %s', (rail, state, action) => {
    const type: TransactionType = rail === 'CARD' ? 'SALE' : 'ACH_DEBIT';
    expect(canTransition({ rail, state, type }, action)).toBe(allowedFrom(rail, action).includes(state));
  });

  it('follow-ups apply to originals only: a refund child cannot be refunded or voided', () => {
    expect(canTransition({ rail: 'CARD', state: 'SETTLED', type: 'REFUND' }, 'refund')).toBe(false);
    expect(canTransition({ rail: 'CARD', state: 'CAPTURED', type: 'PARTIAL_REFUND' }, 'void')).toBe(false);
    expect(canTransition({ rail: 'CARD', state: 'CAPTURED', type: 'REFUND' }, 'settle')).toBe(true);
  });
});

const T = '11111111-1111-4111-8111-111111111111';
const AT = new Date('2026-11-23T15:00:00Z');

function initiated(overrides: Partial<TransactionInitiated['data']> = {}): TransactionEvent {
  return {
    type: 'TransactionInitiated',
    data: {
      transactionId: T,
      partnerId: 'p',
      merchantId: 'm',
      type: 'SALE',
      rail: 'CARD',
      amountMinor: '10000',
      currency: 'USD',
      surchargeMinor: '300',
      convenienceFeeMinor: '0',
      taxMinor: null,
      entryMode: 'KEYED',
      useType: 'ONE_TIME_FUTURE',
      storedCredentialId: 'c',
      vaultToken: 'cvt_x',
      customerId: null,
      parentTransactionId: null,
      card: { brand: 'visa', last4: '1111', expMonth: 12, expYear: 2030, funding: 'credit' },
      bank: null,
      secCode: null,
      customFields: [],
      level2Data: null,
      level3Data: null,
      refundReason: null,
      reversalReason: null,
      convenienceFeeDisclosure: null,
      surchargeDisclosure: null,
      source: 'api',
      initiatedAt: AT.toISOString(),
      ...overrides,
    },
  };
}

const approved: TransactionEvent = {
  type: 'TransactionApproved',
  data: {
    transactionId: T,
    approvalCode: 'A1',
    gatewayTransactionId: 'g',
    avsResponseCode: 'Y',
    cvResponseCode: 'P',
    effectiveDate: null,
    at: AT.toISOString(),
  },
};
const settled: TransactionEvent = {
  type: 'TransactionSettled',
  data: { transactionId: T, batchId: 'b', settledAt: '2026-11-23T23:00:00.000Z' },
};

function fold(events: TransactionEvent[]): TransactionOrNone {
  return events.reduce<TransactionOrNone>(evolve, null);
}

type Cmd = TransactionCommand extends infer C
  ? C extends { at: Date }
    ? Omit<C, 'at' | 'transactionId'>
    : never
  : never;

function run(events: TransactionEvent[], command: Cmd, at = AT) {
  const state = fold(events);
  const out = decide({ ...command, transactionId: T, at } as TransactionCommand, state);
  return { out, after: out.reduce<TransactionOrNone>(evolve, state) as Transaction };
}

describe('decide: create and the gateway answer', () => {
  it('initiates once; a second initiate is refused', () => {
    const { after } = run([], { type: 'InitiateTransaction', data: initiated().data as never });
    expect(after.state).toBe('INITIATED');
    expect(() =>
      run([initiated()], { type: 'InitiateTransaction', data: initiated().data as never }),
    ).toThrow();
  });

  it('approval: a SALE is CAPTURED, an ACH_DEBIT SUBMITTED', () => {
    const outcome = { kind: 'approved', approvalCode: 'X', gatewayTransactionId: 'g' } as const;
    expect(run([initiated()], { type: 'RecordGatewayOutcome', outcome }).after.state).toBe('CAPTURED');
    expect(
      run([initiated({ type: 'ACH_DEBIT', rail: 'ACH' })], { type: 'RecordGatewayOutcome', outcome }).after
        .state,
    ).toBe('SUBMITTED');
  });

  it('a decline is FAILED with its code; an unknown answer keeps INITIATED, pending, recorded once', () => {
    const declined = run([initiated()], {
      type: 'RecordGatewayOutcome',
      outcome: { kind: 'declined', declineCode: 'insufficient_funds', declineReason: 'x' },
    }).after;
    expect(declined).toMatchObject({ state: 'FAILED', declineCode: 'insufficient_funds' });
    const unknown = run([initiated()], { type: 'RecordGatewayOutcome', outcome: { kind: 'unknown' } });
    expect(unknown.after).toMatchObject({ state: 'INITIATED', outcomePending: true });
    const again = run([initiated(), ...unknown.out], {
      type: 'RecordGatewayOutcome',
      outcome: { kind: 'unknown' },
    });
    expect(again.out).toEqual([]);
  });

  it('an answer after the state moved on is 409', () => {
    expect(() =>
      run([initiated(), approved], {
        type: 'RecordGatewayOutcome',
        outcome: { kind: 'approved', approvalCode: null, gatewayTransactionId: null },
      }),
    ).toThrow(InvalidStateTransition);
  });

  it('a command on a missing transaction is transaction_not_found', () => {
    expect(() => run([], { type: 'Settle', batchId: 'b' })).toThrow(TransactionNotFound);
  });
});

describe('decide: refunds never exceed the original', () => {
  const base = [initiated(), approved, settled];

  it('a full REFUND takes the remainder and all of the surcharge', () => {
    const { out, after } = run(base, { type: 'ApplyFollowUp', followUp: 'REFUND', childId: 'r1' });
    expect(out[0]).toMatchObject({ data: { amountMinor: '10000', surchargeReversedMinor: '300' } });
    expect(after).toMatchObject({ state: 'REFUNDED', refundedMinor: '10000', surchargeReversedMinor: '300' });
  });

  it('partial refunds reverse the surcharge in proportion and the last one takes what is left', () => {
    const first = run(base, {
      type: 'ApplyFollowUp',
      followUp: 'PARTIAL_REFUND',
      childId: 'r1',
      amountMinor: 3333n,
    });
    // 300 × 3333/10000 = 99.99: dinero's allocation keeps the spare cent with the larger (unrefunded) part.
    expect(first.out[0]).toMatchObject({ data: { amountMinor: '3333', surchargeReversedMinor: '99' } });
    expect(first.after.state).toBe('PARTIALLY_REFUNDED');
    const events = [...base, ...first.out];
    const rest = run(events, { type: 'ApplyFollowUp', followUp: 'REFUND', childId: 'r2' });
    expect(rest.out[0]).toMatchObject({ data: { amountMinor: '6667', surchargeReversedMinor: '201' } });
    expect(rest.after).toMatchObject({
      state: 'REFUNDED',
      refundedMinor: '10000',
      surchargeReversedMinor: '300',
    });
  });

  it('a PARTIAL_REFUND equal to the remainder makes the parent REFUNDED', () => {
    const { after } = run(base, {
      type: 'ApplyFollowUp',
      followUp: 'PARTIAL_REFUND',
      childId: 'r1',
      amountMinor: 10000n,
    });
    expect(after.state).toBe('REFUNDED');
  });

  it('above the remainder is amount_exceeds_refundable; after REFUNDED any refund is 409', () => {
    const first = run(base, {
      type: 'ApplyFollowUp',
      followUp: 'PARTIAL_REFUND',
      childId: 'r1',
      amountMinor: 6000n,
    });
    expect(() =>
      run([...base, ...first.out], {
        type: 'ApplyFollowUp',
        followUp: 'PARTIAL_REFUND',
        childId: 'r2',
        amountMinor: 4001n,
      }),
    ).toThrow(AmountExceedsRefundable);
    const full = run(base, { type: 'ApplyFollowUp', followUp: 'REFUND', childId: 'r1' });
    expect(() =>
      run([...base, ...full.out], {
        type: 'ApplyFollowUp',
        followUp: 'PARTIAL_REFUND',
        childId: 'r2',
        amountMinor: 1n,
      }),
    ).toThrow(InvalidStateTransition);
  });

  it('a refund before settlement is 409 (use VOID)', () => {
    expect(() =>
      run([initiated(), approved], { type: 'ApplyFollowUp', followUp: 'REFUND', childId: 'r1' }),
    ).toThrow(InvalidStateTransition);
    const voided = run([initiated(), approved], { type: 'ApplyFollowUp', followUp: 'VOID', childId: 'v1' });
    expect(voided.after.state).toBe('VOIDED');
  });

  it('a refund the gateway refused gives the amount back', () => {
    const first = run(base, {
      type: 'ApplyFollowUp',
      followUp: 'PARTIAL_REFUND',
      childId: 'r1',
      amountMinor: 2500n,
    });
    const back = run([...base, ...first.out], { type: 'FailRefund', childId: 'r1' });
    expect(back.after).toMatchObject({ state: 'SETTLED', refundedMinor: '0', surchargeReversedMinor: '0' });
  });
});

describe('decide: ACH', () => {
  const ach = [initiated({ type: 'ACH_DEBIT', rail: 'ACH', surchargeMinor: '0', card: null }), approved];

  it('ACH_VOID while SUBMITTED; a return from SUBMITTED or SETTLED with the R-code', () => {
    expect(run(ach, { type: 'ApplyFollowUp', followUp: 'ACH_VOID', childId: 'v' }).after.state).toBe(
      'VOIDED',
    );
    const returned = run([...ach, settled], { type: 'ReturnAchEntry', returnCode: 'R01' });
    expect(returned.after).toMatchObject({ state: 'RETURNED', returnCode: 'R01' });
    expect(returned.out[0]).toMatchObject({ data: { severity: 'soft' } });
    expect(() => run(ach, { type: 'ReturnAchEntry', returnCode: 'R99' })).toThrow();
  });

  it('ACH_REVERSAL within 5 banking days of settlement, refused after', () => {
    // Settled Monday 2026-11-23; Thanksgiving (Thu 26th) is not a banking day, so the
    // 5th banking day after it is Tue 1 December.
    const events = [...ach, settled];
    const reason = { code: 'duplicate_entry', description: null };
    const inWindow = run(
      events,
      { type: 'ApplyFollowUp', followUp: 'ACH_REVERSAL', childId: 'x', reversalReason: reason },
      new Date('2026-12-01T20:00:00Z'),
    );
    expect(inWindow.after.state).toBe('REVERSED');
    expect(() =>
      run(
        events,
        { type: 'ApplyFollowUp', followUp: 'ACH_REVERSAL', childId: 'x', reversalReason: reason },
        new Date('2026-12-02T00:00:01Z'),
      ),
    ).toThrow(NachaReversalWindowExpired);
  });
});

describe('decide: disputes and 3DS', () => {
  it('dispute from SETTLED; chargeback lost → CHARGED_BACK, won → SETTLED', () => {
    const disputed = run([initiated(), approved, settled], {
      type: 'OpenDispute',
      disputeId: 'd',
      reason: 'fraud',
    });
    expect(disputed.after.state).toBe('DISPUTED');
    const events = [initiated(), approved, settled, ...disputed.out];
    expect(run(events, { type: 'ResolveChargeback', outcome: 'lost' }).after.state).toBe('CHARGED_BACK');
    expect(run(events, { type: 'ResolveChargeback', outcome: 'won' }).after.state).toBe('SETTLED');
  });

  it('a challenge lives 15 minutes; the sweep fails it with callback_timeout only after that', () => {
    const issued = run([initiated()], {
      type: 'IssueThreeDsChallenge',
      challengeUrl: 'https://acs.example/c',
      acsTransactionId: 'acs',
      version: '2.1.0',
    });
    expect(issued.after.threeDs?.expiresAt).toBe('2026-11-23T15:15:00.000Z');
    const events = [initiated(), ...issued.out];
    expect(() => run(events, { type: 'TimeOutThreeDs' }, new Date('2026-11-23T15:14:59Z'))).toThrow();
    const timedOut = run(events, { type: 'TimeOutThreeDs' }, new Date('2026-11-23T15:15:00Z'));
    expect(timedOut.after).toMatchObject({
      state: 'THREE_DS_FAILED',
      threeDsFailureReason: 'callback_timeout',
    });
    expect(run(events, { type: 'CompleteThreeDs', outcome: 'authenticated' }).after.state).toBe('INITIATED');
    expect(run(events, { type: 'CompleteThreeDs', outcome: 'challenge_failed' }).after).toMatchObject({
      state: 'THREE_DS_FAILED',
      threeDsFailureReason: 'challenge_failed',
    });
    const late = run(
      events,
      { type: 'CompleteThreeDs', outcome: 'authenticated' },
      new Date('2026-11-23T15:20:00Z'),
    );
    expect(late.after.threeDsFailureReason).toBe('callback_timeout');
    expect(() => run([initiated(), approved], { type: 'CompleteThreeDs', outcome: 'authenticated' })).toThrow(
      InvalidStateTransition,
    );
  });
});
