import { deciderSpec } from '../../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../../platform/src/problem';
import { evolve, initialState, isExpired, type HppSession } from './session';
import {
  decide,
  type CompleteHppSession,
  type CreateHppSession,
  type HppSessionCommand,
} from './session-decide';
import { HppSessionCommandInvalid, HppSessionNotFound } from './session-errors';
import type { HppSessionEvent } from './session-events';
import { parseSessionRequest } from './session-request';
import { HPP_MAX_FAILED_ATTEMPTS, HPP_SESSION_STATES, HPP_SESSION_TRANSITIONS } from './session-states';

const ID = '5d8e2a10-3c4b-4f6a-9b7c-1d2e3f405162';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const TX = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const EXPIRES = new Date('2026-11-01T10:30:00.000Z');
const BEFORE = new Date(EXPIRES.getTime() - 1);
const T1 = new Date('2026-11-01T10:05:00.000Z');
const ids = { sessionId: ID, merchantId: MERCHANT, partnerId: PARTNER };
const given = deciderSpec({ decide, evolve, initialState });
const CARD = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
const BANK = { routingLast4: '0021', accountLast4: '6789', accountType: 'CHECKING' as const };

const price = (base: bigint, surcharge = 0n, fee = 0n) => ({
  baseMinor: base,
  surchargeMinor: surcharge,
  convenienceFeeMinor: fee,
  totalMinor: base + surcharge + fee,
});
const create = (
  body: Record<string, unknown> = { amount: '10.00' },
  p = price(1000n, 30n),
): CreateHppSession => {
  const request = parseSessionRequest({ merchant_id: MERCHANT, ...body });
  return {
    type: 'CreateHppSession',
    sessionId: ID,
    partnerId: PARTNER,
    at: T0,
    request,
    price: request.amountMinor === null ? null : p,
  };
};
const createdFrom = (command: CreateHppSession): HppSessionEvent[] => decide(command, null);
const created = () => createdFrom(create());
const cancel = (at = T1): HppSessionCommand => ({ type: 'CancelHppSession', sessionId: ID, at });
const expire = (at = EXPIRES): HppSessionCommand => ({ type: 'ExpireHppSession', sessionId: ID, at });
const fail = (at = T1): HppSessionCommand => ({
  type: 'RecordHppSessionFailedAttempt',
  sessionId: ID,
  at,
  reason: 'declined',
});
const complete = (fields: Partial<CompleteHppSession> = {}, at = T1): CompleteHppSession => ({
  type: 'CompleteHppSession',
  sessionId: ID,
  at,
  vaultToken: null,
  storedCredentialId: null,
  transactionId: TX,
  card: CARD,
  bank: null,
  tokenizationOutcome: 'not_requested',
  ...fields,
});
const failures = (n: number): HppSessionEvent[] =>
  Array.from({ length: n }, (_, i) => ({
    type: 'HppSessionAttemptFailed' as const,
    data: { ...ids, count: i + 1, reason: 'declined', failedAt: T1.toISOString() },
  }));
const ended: Record<string, HppSessionEvent> = {
  COMPLETED: decide(complete(), created().reduce(evolve, null))[0]!,
  CANCELLED: { type: 'HppSessionCancelled', data: { ...ids, cancelledAt: T1.toISOString() } },
  EXPIRED: { type: 'HppSessionExpired', data: { ...ids, expiredAt: EXPIRES.toISOString() } },
  LOCKED: { type: 'HppSessionLocked', data: { ...ids, failedAttempts: 5, lockedAt: T1.toISOString() } },
};
const fold = (events: HppSessionEvent[]): HppSession => events.reduce(evolve, null)!;

describe('CreateHppSession', () => {
  it('records the session with its price and a 30-minute expiry', () =>
    expect(created()).toEqual([
      {
        type: 'HppSessionCreated',
        data: {
          ...ids,
          paymentMethod: 'card',
          renderingMode: 'redirect',
          pagePurpose: 'payment',
          captureMode: 'sale',
          amountMode: 'fixed',
          savesPaymentMethod: false,
          credentialUsages: [],
          customerId: null,
          recurringPlan: null,
          customFields: [],
          currency: 'USD',
          amountMinor: '1000',
          surchargeMinor: '30',
          convenienceFeeMinor: '0',
          totalMinor: '1030',
          expiresAt: EXPIRES.toISOString(),
          createdAt: T0.toISOString(),
        },
      },
    ]));

  it('stores a recurring plan in minor-unit strings', () =>
    expect(
      createdFrom(
        create({
          amount: '10.00',
          recurring_plan: { recurring_amount: '25.5', frequency: 'weekly', initial_charge_amount: '10.0' },
          credential_usages: ['RECURRING'],
        }),
      )[0]!.data,
    ).toMatchObject({
      savesPaymentMethod: true,
      credentialUsages: ['RECURRING'],
      recurringPlan: {
        recurringAmountMinor: '2550',
        frequency: 'weekly',
        interval: 1,
        numberOfPayments: null,
        initialChargeAmountMinor: '1000',
      },
    }));

  it('a customer_entered page has no amount or price', () =>
    expect(createdFrom(create({ amount_mode: 'customer_entered' }))[0]!.data).toMatchObject({
      amountMinor: null,
      surchargeMinor: null,
      convenienceFeeMinor: null,
      totalMinor: null,
    }));

  it('refuses a price for another amount', () =>
    given([])
      .when(create({ amount: '10.00' }, price(999n)))
      .thenThrows(HppSessionCommandInvalid));
  it('refuses a price that does not add up', () =>
    given([])
      .when(create({ amount: '10.00' }, { ...price(1000n, 30n), totalMinor: 1000n }))
      .thenThrows(HppSessionCommandInvalid));
  it('refuses a fixed amount without a price', () =>
    given([])
      .when({ ...create(), price: null })
      .thenThrows(HppSessionCommandInvalid));
  it('refuses a price without an amount', () =>
    given([])
      .when({ ...create({ amount_mode: 'customer_entered' }), price: price(1000n) })
      .thenThrows(HppSessionCommandInvalid));
  it('refuses a second create (409)', () =>
    given(created())
      .when(create())
      .thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from: 'PENDING' }));
});

describe('commands on an unknown session are 404', () => {
  it.each([cancel(), expire(), fail(), complete()])('%p', (command) =>
    given([]).when(command).thenThrows(HppSessionNotFound, { code: 'hpp_session_not_found' }),
  );
});

describe('every (state, command) pair', () => {
  const commands: Record<string, HppSessionCommand> = {
    cancel: cancel(),
    expire: expire(),
    record_failed_attempt: fail(),
    complete: complete(),
  };
  const histories: Record<string, HppSessionEvent[]> = {
    PENDING: created(),
    COMPLETED: [...created(), ended.COMPLETED!],
    CANCELLED: [...created(), ended.CANCELLED!],
    EXPIRED: [...created(), ended.EXPIRED!],
  };
  // The lockout's CANCELLED is as terminal as the partner's.
  const lockedOut = [...created(), ...failures(5), ended.LOCKED!];
  it.each(Object.keys(commands))('CANCELLED by the lockout × %s', (action) =>
    given(lockedOut)
      .when(commands[action]!)
      .thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from: 'CANCELLED', action }),
  );
  it('covers every state', () =>
    expect(Object.keys(histories).sort()).toEqual([...HPP_SESSION_STATES].sort()));

  const pairs = Object.keys(histories).flatMap((state) =>
    Object.keys(commands).map((action) => [state, action] as const),
  );
  it.each(pairs)('%s × %s', (state, action) => {
    const run = given(histories[state]!).when(commands[action]!);
    const allowed = (HPP_SESSION_TRANSITIONS[action as 'cancel'].from as readonly string[]).includes(state);
    expect(allowed).toBe(state === 'PENDING');
    if (allowed)
      run.thenState((session) => expect(session!.state).toBe(HPP_SESSION_TRANSITIONS[action as 'cancel'].to));
    else run.thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from: state, action });
  });
});

describe("linking a plan's contract (link_contract)", () => {
  const CONTRACT = '3f0c7b1e-2a4d-4c5e-8f60-718293a4b5c6';
  const planned = createdFrom(
    create({
      amount: '10.00',
      credential_usages: ['RECURRING'],
      recurring_plan: { recurring_amount: '10.00', frequency: 'monthly' },
    }),
  );
  const link = (contractId = CONTRACT): HppSessionCommand => ({
    type: 'LinkHppSessionContract',
    sessionId: ID,
    at: T1,
    contractId,
  });
  const linked = {
    type: 'HppSessionContractLinked' as const,
    data: { ...ids, contractId: CONTRACT, linkedAt: T1.toISOString() },
  };

  it('a PENDING session with a plan names its contract, once', () => {
    given(planned).when(link()).then([linked]);
    given([...planned, linked])
      .when(link())
      .then([]);
    given([...planned, linked])
      .when(link('0a0b0c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'))
      .thenThrows(HppSessionCommandInvalid);
  });
  it('a session without a plan has no contract', () =>
    given(created())
      .when(link())
      .thenThrows(HppSessionCommandInvalid, { code: 'hpp_session_command_invalid' }));
  it.each(['COMPLETED', 'CANCELLED', 'EXPIRED'])('%s × link_contract is 409', (state) =>
    given([...planned, ended[state]!])
      .when(link())
      .thenThrows(InvalidStateTransition, {
        code: 'invalid_state_transition',
        from: state,
        action: 'link_contract',
      }),
  );
});

describe('double submit', () => {
  it('a second Complete is 409 invalid_state_transition', () => {
    const first = decide(complete(), fold(created()));
    given([...created(), ...first])
      .when(complete())
      .thenThrows(InvalidStateTransition, {
        code: 'invalid_state_transition',
        from: 'COMPLETED',
        action: 'complete',
      });
  });
});

describe('expiry', () => {
  it('isExpired is false 1 ms before expires_at and true at it', () => {
    const session = fold(created());
    expect(isExpired(session, BEFORE)).toBe(false);
    expect(isExpired(session, EXPIRES)).toBe(true);
  });
  it('Expire 1 ms before expires_at is refused', () =>
    given(created()).when(expire(BEFORE)).thenThrows(HppSessionCommandInvalid));
  it('Expire at expires_at records it', () =>
    given(created())
      .when(expire(EXPIRES))
      .then([{ type: 'HppSessionExpired', data: { ...ids, expiredAt: EXPIRES.toISOString() } }]));
  it('Complete 1 ms before expires_at completes', () =>
    given(created())
      .when(complete({}, BEFORE))
      .thenState((s) => expect(s!.state).toBe('COMPLETED')));
  it.each([
    ['complete', complete({}, EXPIRES)],
    ['cancel', cancel(EXPIRES)],
    ['record_failed_attempt', fail(EXPIRES)],
  ] as const)('%s at expires_at sees EXPIRED (409) before the sweeper ran', (action, command) =>
    given(created()).when(command).thenThrows(InvalidStateTransition, { from: 'EXPIRED', action }),
  );
});

describe('card-testing lockout', () => {
  it('is 5 attempts', () => expect(HPP_MAX_FAILED_ATTEMPTS).toBe(5));
  it.each([0, 1, 2, 3])('failure %# + 1 only counts', (before) =>
    given([...created(), ...failures(before)])
      .when(fail())
      .then([
        {
          type: 'HppSessionAttemptFailed',
          data: { ...ids, count: before + 1, reason: 'declined', failedAt: T1.toISOString() },
        },
      ]),
  );
  it('the 5th failure locks the session', () =>
    given([...created(), ...failures(4)])
      .when(fail())
      .then([
        {
          type: 'HppSessionAttemptFailed',
          data: { ...ids, count: 5, reason: 'declined', failedAt: T1.toISOString() },
        },
        { type: 'HppSessionLocked', data: { ...ids, failedAttempts: 5, lockedAt: T1.toISOString() } },
      ]));
  it('a locked session is CANCELLED (CONTRACT §8 has no other end), marked as locked out, and cannot complete', () => {
    const locked = [...created(), ...failures(5), ended.LOCKED!];
    expect(fold(locked)).toMatchObject({
      state: 'CANCELLED',
      lockedOut: true,
      endedAt: T1.toISOString(),
      lastAttempt: { reason: 'declined' },
    });
    expect(fold([...created(), ended.CANCELLED!]).lockedOut).toBeUndefined();
    given(locked).when(complete()).thenThrows(InvalidStateTransition, { from: 'CANCELLED' });
  });
  it('the last attempt is kept', () =>
    given([...created(), ...failures(1)])
      .when(fail())
      .thenState((s) =>
        expect(s).toMatchObject({
          failedAttempts: 2,
          lastAttempt: { at: T1.toISOString(), reason: 'declined' },
          state: 'PENDING',
        }),
      ));
});

describe('CompleteHppSession', () => {
  const saveCard = create({ page_purpose: 'save_payment_method', credential_usages: ['UNSCHEDULED_COF'] });
  const payAndSave = create({
    amount: '10.00',
    save_payment_method: true,
    credential_usages: ['ONE_TIME_FUTURE'],
  });
  const ach = create({ amount: '10.00', payment_method: 'ach' });
  const entered = create({ amount_mode: 'customer_entered' });
  const stored = {
    vaultToken: 'cvt_abc',
    storedCredentialId: 'sc-1',
    tokenizationOutcome: 'stored' as const,
  };

  it('records everything the read form needs', () =>
    given(createdFrom(payAndSave))
      .when(complete(stored))
      .then([
        {
          type: 'HppSessionCompleted',
          data: {
            ...ids,
            vaultToken: 'cvt_abc',
            storedCredentialId: 'sc-1',
            transactionId: TX,
            card: CARD,
            bank: null,
            tokenizationOutcome: 'stored',
            tokenCaptureFailure: null,
            enteredPrice: null,
            completedAt: T1.toISOString(),
          },
        },
      ]));
  it('a save page completes without a transaction', () =>
    given(createdFrom(saveCard))
      .when(complete({ ...stored, transactionId: null }))
      .thenState((s) =>
        expect(s).toMatchObject({ state: 'COMPLETED', vaultToken: 'cvt_abc', transactionId: null }),
      ));
  it('a payment that could not be vaulted records the failure', () =>
    given(createdFrom(payAndSave))
      .when(complete({ tokenizationOutcome: 'failed', tokenCaptureFailureReason: 'gateway_timeout' }))
      .thenState((s) =>
        expect(s!.tokenCaptureFailure).toEqual({ at: T1.toISOString(), reason: 'gateway_timeout' }),
      ));
  it('an ACH session completes with a bank', () =>
    given(createdFrom(ach))
      .when(complete({ card: null, bank: BANK }))
      .thenState((s) => expect(s!.bank).toEqual(BANK)));
  it('a customer_entered page records the entered price', () =>
    given(createdFrom(entered))
      .when(complete({ enteredPrice: price(2500n, 0n, 150n) }))
      .thenState((s) =>
        expect(s).toMatchObject({ amountMinor: '2500', convenienceFeeMinor: '150', totalMinor: '2650' }),
      ));

  it.each<[string, CreateHppSession, Partial<CompleteHppSession>]>([
    ['card session without a card', create(), { card: null }],
    ['card session with a bank', create(), { bank: BANK }],
    ['ach session with a card', ach, { bank: BANK }],
    ['payment page without a transaction', create(), { transactionId: null }],
    ['save page with a transaction', saveCard, stored],
    ['saving session with not_requested', payAndSave, {}],
    ['non-saving session with stored', create(), stored],
    ['stored without a token', payAndSave, { ...stored, vaultToken: null }],
    [
      'failed on a save page',
      saveCard,
      { transactionId: null, tokenizationOutcome: 'failed', tokenCaptureFailureReason: 'x' },
    ],
    ['failed without a reason', payAndSave, { tokenizationOutcome: 'failed' }],
    ['customer_entered without a price', entered, {}],
    ['a price on a fixed page', create(), { enteredPrice: price(1000n) }],
    ['an entered price that does not add up', entered, { enteredPrice: { ...price(1000n), totalMinor: 1n } }],
    ['a zero entered amount', entered, { enteredPrice: price(0n) }],
  ])('refuses %s', (_, createCommand, fields) =>
    given(createdFrom(createCommand)).when(complete(fields)).thenThrows(HppSessionCommandInvalid),
  );
});
