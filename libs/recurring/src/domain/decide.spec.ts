import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import {
  evolve,
  initialState,
  nextChargeDate,
  remainingInstallments,
  retryCountOf,
  type Contract,
} from './contract';
import { ContractCommandInvalid, ContractInvalid, ContractNotFound } from './contract-errors';
import type { ContractEvent } from './contract-events';
import {
  canTransition,
  CONTRACT_ACTIONS,
  CONTRACT_STATES,
  CONTRACT_TRANSITIONS,
  type ContractState,
} from './contract-states';
import {
  decide,
  dueInstallment,
  installmentKey,
  type ContractCommand,
  type CreateContract,
  type InstallmentResult,
} from './decide';

const ID = '6a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const SESSION = '5d8e2a10-3c4b-4f6a-9b7c-1d2e3f405162';
const CARD = {
  vaultToken: 'cvt_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  storedCredentialId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  card: { brand: 'VISA', last4: '1111', expMonth: 12, expYear: 2030 },
  bank: null,
};
const BANK = {
  vaultToken: 'cvt_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
  storedCredentialId: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a',
  card: null,
  bank: { accountType: 'CHECKING' as const, accountLast4: '6789', routingLast4: '0015' },
};

const given = deciderSpec({ decide, evolve, initialState });
const at = (date: string, time = '09:00:00') => new Date(`${date}T${time}.000Z`);
const fold = (events: ContractEvent[]): Contract => events.reduce(evolve, initialState())!;
const tx = (n: number, attempt = 0) =>
  `9a8b7c6d-5e4f-4a3b-8c2d-${String(n * 10 + attempt).padStart(12, '0')}`;

const create = (fields: Partial<CreateContract> = {}): CreateContract => ({
  type: 'CreateContract',
  contractId: ID,
  at: at('2027-01-31', '08:00:00'),
  partnerId: PARTNER,
  merchantId: MERCHANT,
  customerId: null,
  origin: 'api',
  hppSessionId: null,
  paymentMethodType: 'CARD',
  paymentMethod: CARD,
  useType: 'RECURRING',
  amountMinor: 1000n,
  currency: 'USD',
  frequency: 'MONTHLY',
  interval: 1,
  startDate: '2027-01-31',
  endDate: null,
  numberOfPayments: null,
  maxRetries: 3,
  customFields: [],
  level2Data: null,
  level3Data: null,
  activationDeadline: null,
  ...fields,
});
const created = (fields: Partial<CreateContract> = {}) => decide(create(fields), null);
const hppCreated = () =>
  created({
    origin: 'hpp',
    hppSessionId: SESSION,
    paymentMethod: null,
    numberOfPayments: 3,
    activationDeadline: '2027-01-31T08:30:00.000Z',
  });

/** Runs a command on a history and returns the history with its events. */
const apply = (history: ContractEvent[], command: ContractCommand): ContractEvent[] => [
  ...history,
  ...decide(command, fold(history)),
];
const attempt = (date: string, installment: number, n = 0): ContractCommand => ({
  type: 'StartInstallmentAttempt',
  contractId: ID,
  at: at(date),
  installment,
  attempt: n,
  transactionId: tx(installment, n),
  idempotencyKey: installmentKey(ID, installment, n),
});
const outcome = (date: string, installment: number, result: InstallmentResult, n = 0): ContractCommand => ({
  type: 'RecordInstallmentOutcome',
  contractId: ID,
  at: at(date, '09:00:01'),
  installment,
  attempt: n,
  transactionId: result.kind === 'refused' ? null : tx(installment, n),
  result,
});
const approved: InstallmentResult = { kind: 'approved' };
const soft: InstallmentResult = { kind: 'declined', declineCode: 'insufficient_funds' };
const hard: InstallmentResult = { kind: 'declined', declineCode: 'card_declined' };
/** The installment due on `date`, charged (or declined) the way the scheduler does it. */
const charge = (history: ContractEvent[], date: string, result: InstallmentResult = approved) => {
  const due = dueInstallment(fold(history), date);
  if (!due) throw new Error(`nothing due on ${date}`);
  return apply(
    apply(history, attempt(date, due.installment, due.attempt)),
    outcome(date, due.installment, result, due.attempt),
  );
};
const simple = (type: ContractCommand['type'], date = '2027-02-01', fields: object = {}) =>
  ({ type, contractId: ID, at: at(date), reason: null, ...fields }) as ContractCommand;

describe('creating a contract', () => {
  it('on a token: ACTIVE, charging from start_date', () =>
    given([])
      .when(create())
      .thenState((c) => {
        expect(c).toMatchObject({ state: 'ACTIVE', nextInstallment: 1, paidCount: 0, amountPaidMinor: '0' });
        expect(nextChargeDate(c!)).toBe('2027-01-31');
        expect(remainingInstallments(c!)).toBeNull();
      }));
  it('from a hosted page: PENDING_ACTIVATION, nothing to charge until its first payment', () =>
    given([])
      .when(
        create({
          origin: 'hpp',
          hppSessionId: SESSION,
          paymentMethod: null,
          activationDeadline: '2027-01-31T08:30:00.000Z',
        }),
      )
      .thenState((c) => {
        expect(c!.state).toBe('PENDING_ACTIVATION');
        expect(dueInstallment(c!, '2027-12-31')).toBeNull();
        expect(nextChargeDate(c!)).toBeNull();
      }));
  it('twice is 409', () =>
    given(created())
      .when(create())
      .thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from: 'ACTIVE' }));
  it.each<[string, Partial<CreateContract>]>([
    ['a zero amount', { amountMinor: 0n }],
    ['interval 0', { interval: 0 }],
    ['zero payments', { numberOfPayments: 0 }],
    ['end before start', { endDate: '2027-01-30' }],
    ['a token contract without its token', { paymentMethod: null }],
    ['a card contract on a bank account', { paymentMethod: BANK }],
    ['a hosted plan without a deadline', { origin: 'hpp', hppSessionId: SESSION, paymentMethod: null }],
  ])('refuses %s (a command the application built wrong)', (_, fields) =>
    given([]).when(create(fields)).thenThrows(ContractCommandInvalid),
  );
  it('commands on an unknown contract are 404', () =>
    given([]).when(simple('PauseContract')).thenThrows(ContractNotFound, { code: 'contract_not_found' }));
});

/**
 * CONTRACT §8 and docs/recurring.md, written out: which action each state allows. Written from
 * the documents, not read from the table, so a change to either shows here.
 */
const ALLOWED: Record<string, readonly ContractState[]> = {
  activate: ['PENDING_ACTIVATION'],
  expire_activation: ['PENDING_ACTIVATION'],
  pause: ['ACTIVE'],
  resume: ['PAUSED'],
  hold: ['ACTIVE'],
  release: ['PAUSED'],
  cancel: ['PENDING_ACTIVATION', 'ACTIVE', 'PAUSED'],
  update: ['ACTIVE', 'PAUSED'],
  attempt: ['ACTIVE'],
  record_outcome: ['ACTIVE', 'PAUSED', 'CANCELLED'],
  record_return: ['ACTIVE', 'PAUSED', 'COMPLETED', 'CANCELLED', 'FAILED'],
  complete: ['ACTIVE'],
  fail: ['ACTIVE', 'PAUSED'],
};
const TARGET: Record<string, ContractState | 'UNCHANGED'> = {
  activate: 'ACTIVE',
  expire_activation: 'CANCELLED',
  pause: 'PAUSED',
  resume: 'ACTIVE',
  hold: 'PAUSED',
  release: 'ACTIVE',
  cancel: 'CANCELLED',
  complete: 'COMPLETED',
  fail: 'FAILED',
};

describe('the transition table, every (state, action) pair', () => {
  it('has exactly the actions the documents name', () =>
    expect([...CONTRACT_ACTIONS].sort()).toEqual(Object.keys(ALLOWED).sort()));
  const pairs = CONTRACT_STATES.flatMap((state) =>
    CONTRACT_ACTIONS.map((action) => [state, action] as const),
  );
  it.each(pairs)('%s × %s', (state, action) => {
    expect(canTransition(state, action)).toBe(ALLOWED[action].includes(state));
    expect(CONTRACT_TRANSITIONS[action].to).toBe(TARGET[action] ?? 'UNCHANGED');
  });
});

describe('every (state, command) pair, through decide', () => {
  // One history per state; where the state allows it, an installment is in flight (an outcome or
  // a return has something to record).
  const active = created({ startDate: '2027-01-31', paymentMethodType: 'ACH', paymentMethod: BANK });
  const paid = charge(active, '2027-01-31');
  const inFlight = apply(paid, attempt('2027-02-28', 2));
  const histories: Record<ContractState, ContractEvent[]> = {
    PENDING_ACTIVATION: hppCreated(),
    ACTIVE: inFlight,
    PAUSED: apply(inFlight, {
      type: 'HoldContract',
      contractId: ID,
      at: at('2027-02-28'),
      reasonCode: 'merchant_suspended',
      reason: 'x',
    }),
    CANCELLED: apply(inFlight, simple('CancelContract', '2027-02-28')),
    COMPLETED: charge(
      created({ numberOfPayments: 1, paymentMethodType: 'ACH', paymentMethod: BANK }),
      '2027-01-31',
    ),
    FAILED: charge(paid, '2027-02-28', hard),
  };
  /** ACTIVE with nothing in flight: what `attempt` needs (installment 2 is due on 28 February). */
  const historyFor = (state: ContractState, action: string) =>
    state === 'ACTIVE' && action === 'attempt' ? paid : histories[state];
  const commands: Record<string, (state: ContractState) => ContractCommand> = {
    activate: () => ({
      type: 'ActivateContract',
      contractId: ID,
      at: at('2027-01-31'),
      paymentMethod: CARD,
      initialTransactionId: tx(1),
      initialAmountMinor: 1000n,
    }),
    expire_activation: () => ({ type: 'ExpireContractActivation', contractId: ID, at: at('2027-02-01') }),
    pause: () => simple('PauseContract', '2027-02-28'),
    resume: () => simple('ResumeContract', '2027-02-28'),
    hold: () => ({
      type: 'HoldContract',
      contractId: ID,
      at: at('2027-02-28'),
      reasonCode: 'merchant_closed',
      reason: 'x',
    }),
    release: () => ({ type: 'ReleaseContract', contractId: ID, at: at('2027-02-28') }),
    cancel: () => simple('CancelContract', '2027-02-28'),
    update: () => simple('UpdateContract', '2027-02-28', { endDate: '2027-12-31' }),
    attempt: () => attempt('2027-02-28', 2),
    record_outcome: () => outcome('2027-02-28', 2, approved),
    record_return: () => ({
      type: 'RecordInstallmentReturn',
      contractId: ID,
      at: at('2027-03-02'),
      transactionId: tx(1),
      returnCode: 'R02',
    }),
  };
  it('covers every state', () => expect(Object.keys(histories).sort()).toEqual([...CONTRACT_STATES].sort()));
  // `complete` and `fail` are never asked for: they follow from an outcome, a PATCH or a resume.
  const pairs = CONTRACT_STATES.flatMap((state) =>
    Object.keys(commands).map((action) => [state, action] as const),
  );
  it.each(pairs)('%s × %s', (state, action) => {
    const history = historyFor(state, action);
    const command = commands[action](state);
    const run = given(history).when(command);
    if (!ALLOWED[action].includes(state)) {
      // An outcome with nothing in flight is a re-run: it adds nothing, whatever the state.
      if (action === 'record_outcome' && fold(history).inFlight === null) return run.then([]);
      return run.thenThrows(InvalidStateTransition, {
        code: 'invalid_state_transition',
        from: state,
        action,
      });
    }
    run.thenState((after, events) => {
      expect(events.length).toBeGreaterThan(0);
      const target = TARGET[action];
      if (target) expect(after!.state).toBe(target);
    });
  });
});

describe('the schedule, as the scheduler charges it', () => {
  it('a monthly contract started 31 January charges 31 January, 28 February, 31 March', () => {
    let h = created();
    const due: string[] = [];
    for (const date of ['2027-01-31', '2027-02-28', '2027-03-31']) {
      due.push(dueInstallment(fold(h), date)!.dueDate);
      h = charge(h, date);
    }
    expect(due).toEqual(['2027-01-31', '2027-02-28', '2027-03-31']);
    expect(dueInstallment(fold(h), '2027-04-29')).toBeNull();
    expect(nextChargeDate(fold(h))).toBe('2027-04-30');
  });

  it('a clock jump over several periods: each missed period once, in order, one at a time', () => {
    let h = created({ frequency: 'WEEKLY', startDate: '2027-01-31' });
    const today = '2027-02-22'; // periods of 31 Jan, 7, 14 and 21 Feb are due
    const charged: [number, string][] = [];
    for (;;) {
      const c = fold(h);
      const due = dueInstallment(c, today);
      if (!due) break;
      h = apply(h, attempt(today, due.installment));
      // While one is in flight nothing else is due: never two charges side by side.
      expect(dueInstallment(fold(h), today)).toBeNull();
      h = apply(h, outcome(today, due.installment, approved));
      charged.push([due.installment, due.dueDate]);
    }
    expect(charged).toEqual([
      [1, '2027-01-31'],
      [2, '2027-02-07'],
      [3, '2027-02-14'],
      [4, '2027-02-21'],
    ]);
    expect(fold(h)).toMatchObject({ paidCount: 4, amountPaidMinor: '4000', lastSuccessfulChargeDate: today });
  });

  it('interval multiplies the period', () => {
    let h = created({ frequency: 'DAILY', interval: 3, startDate: '2027-01-31' });
    h = charge(h, '2027-01-31');
    expect(nextChargeDate(fold(h))).toBe('2027-02-03');
  });

  it('number_of_payments ends it: the last payment completes the contract', () => {
    let h = created({ numberOfPayments: 2 });
    h = charge(h, '2027-01-31');
    expect(remainingInstallments(fold(h))).toBe(1);
    const last = decide(attempt('2027-02-28', 2), fold(h));
    const done = decide(outcome('2027-02-28', 2, approved), fold([...h, ...last]));
    expect(done.map((e) => e.type)).toEqual(['ContractInstallmentCharged', 'ContractCompleted']);
    expect(fold([...h, ...last, ...done])).toMatchObject({
      state: 'COMPLETED',
      paidCount: 2,
      amountPaidMinor: '2000',
    });
  });

  it('end_date ends it: no period after it is charged', () => {
    let h = created({ frequency: 'DAILY', startDate: '2027-01-31', endDate: '2027-02-02' });
    expect(remainingInstallments(fold(h))).toBe(3);
    h = charge(h, '2027-02-05');
    h = charge(h, '2027-02-05');
    const last = charge(h, '2027-02-05');
    expect(fold(last)).toMatchObject({ state: 'COMPLETED', paidCount: 3 });
    expect(last[last.length - 1].type).toBe('ContractCompleted');
  });

  it('the fewer of number_of_payments and end_date wins', () => {
    const c = fold(created({ frequency: 'DAILY', endDate: '2027-02-09', numberOfPayments: 4 }));
    expect(remainingInstallments(c)).toBe(4);
    const d = fold(created({ frequency: 'DAILY', endDate: '2027-02-01', numberOfPayments: 4 }));
    expect(remainingInstallments(d)).toBe(2);
  });

  it('a start_date in the future: nothing is due before it', () => {
    const c = fold(created({ startDate: '2027-03-15', at: at('2027-01-31') }));
    expect(dueInstallment(c, '2027-03-14')).toBeNull();
    expect(dueInstallment(c, '2027-03-15')).toMatchObject({ installment: 1, dueDate: '2027-03-15' });
  });

  it('the reserved key of each charge', () => {
    expect(installmentKey(ID, 3, 0)).toBe(`recurring:${ID}:3`);
    expect(installmentKey(ID, 3, 2)).toBe(`recurring:${ID}:3:retry-2`);
  });

  it('an attempt not due is refused; the same attempt again adds nothing', () => {
    const h = created();
    given(h).when(attempt('2027-01-31', 2)).thenThrows(ContractCommandInvalid);
    given(created({ startDate: '2027-02-01', at: at('2027-01-31') }))
      .when(attempt('2027-01-31', 1))
      .thenThrows(ContractCommandInvalid);
    given(apply(h, attempt('2027-01-31', 1)))
      .when(attempt('2027-01-31', 1))
      .then([]);
  });
});

describe('retries (dunning)', () => {
  it('a soft decline is retried after 1, 3 then 7 days, then the exhausted contract FAILS', () => {
    let h = created();
    const retries: [number, string][] = [];
    let date = '2027-01-31';
    for (let n = 0; n < 3; n++) {
      h = charge(h, date, soft);
      const c = fold(h);
      expect(c.state).toBe('ACTIVE');
      retries.push([c.retries[0].attempt, c.retries[0].dueDate]);
      expect(nextChargeDate(c)).toBe(c.retries[0].dueDate);
      date = c.retries[0].dueDate;
    }
    expect(retries).toEqual([
      [1, '2027-02-01'],
      [2, '2027-02-04'],
      [3, '2027-02-11'],
    ]);
    const failed = charge(h, date, soft);
    expect(failed.slice(-2).map((e) => e.type)).toEqual(['ContractInstallmentFailed', 'ContractFailed']);
    expect(fold(failed)).toMatchObject({ state: 'FAILED', ending: { reasonCode: 'retries_exhausted' } });
  });

  it('retry_count counts the retries of the installment being collected, tried ones included', () => {
    const counts: number[] = [];
    let h = created({ frequency: 'DAILY', maxRetries: 2 });
    counts.push(retryCountOf(fold(h)));
    h = apply(h, attempt('2027-01-31', 1));
    h = apply(h, outcome('2027-01-31', 1, soft));
    counts.push(retryCountOf(fold(h.slice(0, -1)))); // failed, retry not yet scheduled
    counts.push(retryCountOf(fold(h))); // retry 1 scheduled
    h = apply(h, attempt('2027-02-01', 1, 1));
    h = apply(h, outcome('2027-02-01', 1, soft, 1));
    counts.push(retryCountOf(fold(h.slice(0, -1)))); // retry 1 failed
    h = apply(h, attempt('2027-02-04', 1, 2));
    h = apply(h, outcome('2027-02-04', 1, soft, 2));
    counts.push(retryCountOf(fold(h))); // retry 2 failed: FAILED, retries exhausted
    expect(fold(h).state).toBe('FAILED');
    expect(counts).toEqual([0, 0, 1, 1, 2]);
    // Collected at last: back to 0.
    const paid = charge(charge(created({ frequency: 'DAILY' }), '2027-01-31', soft), '2027-02-01');
    expect(retryCountOf(fold(paid))).toBe(0);
  });

  it('a retry under its own key; the regular schedule waits for it, then goes on', () => {
    let h = charge(created({ frequency: 'DAILY' }), '2027-01-31', soft);
    // Due on 1 February: the retry of installment 1, not installment 2.
    const due = dueInstallment(fold(h), '2027-02-01')!;
    expect(due).toMatchObject({ installment: 1, attempt: 1 });
    expect(installmentKey(ID, due.installment, due.attempt)).toBe(`recurring:${ID}:1:retry-1`);
    h = charge(h, '2027-02-01');
    expect(fold(h)).toMatchObject({ paidCount: 1, retries: [] });
    expect(dueInstallment(fold(h), '2027-02-01')).toMatchObject({
      installment: 2,
      attempt: 0,
      dueDate: '2027-02-01',
    });
  });

  it('max_retries 0: the first soft decline fails the contract', () =>
    expect(fold(charge(created({ maxRetries: 0 }), '2027-01-31', soft))).toMatchObject({
      state: 'FAILED',
      ending: { reasonCode: 'retries_exhausted' },
    }));

  it.each(['card_declined', 'expired_card'])('a hard decline (%s) fails the contract at once', (code) => {
    const h = charge(created(), '2027-01-31', { kind: 'declined', declineCode: code });
    expect(h.slice(-2).map((e) => e.type)).toEqual(['ContractInstallmentFailed', 'ContractFailed']);
    expect(fold(h)).toMatchObject({ state: 'FAILED', ending: { by: 'system', reasonCode: code } });
  });

  it('a refusal before the gateway (a revoked credential) fails it too', () =>
    expect(
      fold(charge(created(), '2027-01-31', { kind: 'refused', code: 'stored_credential_not_chargeable' })),
    ).toMatchObject({
      state: 'FAILED',
      ending: { reasonCode: 'stored_credential_not_chargeable' },
    }));
});

describe('ACH returns', () => {
  const ach = () => created({ paymentMethodType: 'ACH', paymentMethod: BANK, frequency: 'DAILY' });
  const ret = (transactionId: string, returnCode: string, date = '2027-02-02'): ContractCommand => ({
    type: 'RecordInstallmentReturn',
    contractId: ID,
    at: at(date),
    transactionId,
    returnCode,
  });

  it('R01 makes the installment unpaid and retries it, before any later installment', () => {
    const h = charge(charge(ach(), '2027-01-31'), '2027-02-01');
    const events = decide(ret(tx(1), 'R01'), fold(h));
    expect(events.map((e) => e.type)).toEqual(['ContractInstallmentReturned', 'ContractRetryScheduled']);
    const c = fold([...h, ...events]);
    expect(c).toMatchObject({
      paidCount: 1,
      amountPaidMinor: '1000',
      retries: [{ installment: 1, attempt: 1, dueDate: '2027-02-03' }],
    });
    expect(dueInstallment(c, '2027-02-03')).toMatchObject({ installment: 1, attempt: 1 });
  });

  it('two returns wait in installment order', () => {
    const h = charge(charge(ach(), '2027-01-31'), '2027-02-01');
    const both = apply(apply(h, ret(tx(2), 'R01')), ret(tx(1), 'R09'));
    expect(fold(both).retries.map((r) => r.installment)).toEqual([1, 2]);
    expect(remainingInstallments(fold(both))).toBeNull();
  });

  it('a hard return code (R02) fails the contract', () => {
    const h = charge(ach(), '2027-01-31');
    const events = decide(ret(tx(1), 'R02'), fold(h));
    expect(events.map((e) => e.type)).toEqual(['ContractInstallmentReturned', 'ContractFailed']);
  });

  it('a return after the contract ended is recorded and not retried', () => {
    const h = charge(
      created({ paymentMethodType: 'ACH', paymentMethod: BANK, numberOfPayments: 1 }),
      '2027-01-31',
    );
    expect(fold(h).state).toBe('COMPLETED');
    const events = decide(ret(tx(1), 'R01'), fold(h));
    expect(events.map((e) => e.type)).toEqual(['ContractInstallmentReturned']);
    expect(fold([...h, ...events])).toMatchObject({ state: 'COMPLETED', paidCount: 0, amountPaidMinor: '0' });
  });

  it('a transaction that is not an installment of the contract, or returned already, adds nothing', () => {
    const h = charge(ach(), '2027-01-31');
    given(h)
      .when(ret(tx(7), 'R01'))
      .then([]);
    given(apply(h, ret(tx(1), 'R01')))
      .when(ret(tx(1), 'R01'))
      .then([]);
  });
});

describe('pause, resume, cancel and charges in flight', () => {
  it('paused while its charge is in flight: the charge stands and the counters move', () => {
    const h = apply(apply(created(), attempt('2027-01-31', 1)), simple('PauseContract', '2027-01-31'));
    const after = fold(apply(h, outcome('2027-01-31', 1, approved)));
    expect(after).toMatchObject({ state: 'PAUSED', paidCount: 1, amountPaidMinor: '1000', inFlight: null });
    expect(dueInstallment(after, '2027-06-30')).toBeNull();
  });

  it('cancelled while its charge is in flight: the charge stands, nothing more is charged or retried', () => {
    const h = apply(apply(created(), attempt('2027-01-31', 1)), simple('CancelContract', '2027-01-31'));
    expect(fold(apply(h, outcome('2027-01-31', 1, approved)))).toMatchObject({
      state: 'CANCELLED',
      paidCount: 1,
    });
    const declined = decide(outcome('2027-01-31', 1, soft), fold(h));
    expect(declined.map((e) => e.type)).toEqual(['ContractInstallmentFailed']);
  });

  it('an attempt withdrawn (nothing was charged) waits under the same key', () => {
    const h = apply(apply(created(), attempt('2027-01-31', 1)), {
      type: 'WithdrawInstallmentAttempt',
      contractId: ID,
      at: at('2027-01-31'),
      installment: 1,
      attempt: 0,
      reasonCode: 'merchant_suspended',
    });
    expect(fold(h)).toMatchObject({ inFlight: null, nextInstallment: 2 });
    expect(dueInstallment(fold(h), '2027-01-31')).toMatchObject({
      installment: 1,
      attempt: 0,
      dueDate: '2027-01-31',
    });
    // Charging it afterwards does not start a second regular installment.
    expect(fold(charge(h, '2027-01-31'))).toMatchObject({ paidCount: 1, nextInstallment: 2 });
  });

  it('resume skips the periods that fell due while paused', () => {
    const paused = apply(
      charge(created({ frequency: 'WEEKLY' }), '2027-01-31'),
      simple('PauseContract', '2027-02-01'),
    );
    const resumed = fold(apply(paused, simple('ResumeContract', '2027-02-20')));
    expect(resumed.state).toBe('ACTIVE');
    expect(nextChargeDate(resumed)).toBe('2027-02-21');
    expect(dueInstallment(resumed, '2027-02-20')).toBeNull();
  });

  it('resume past the last period completes the contract', () => {
    const paused = apply(
      created({ frequency: 'DAILY', endDate: '2027-02-01' }),
      simple('PauseContract', '2027-01-31', { at: at('2027-01-30') }),
    );
    const events = decide(simple('ResumeContract', '2027-02-10'), fold(paused));
    expect(events.map((e) => e.type)).toEqual(['ContractResumed', 'ContractCompleted']);
  });

  it('the platform releases only its own hold', () => {
    const held = apply(created(), {
      type: 'HoldContract',
      contractId: ID,
      at: at('2027-01-31'),
      reasonCode: 'merchant_suspended',
      reason: 'the merchant is SUSPENDED',
    });
    expect(fold(held)).toMatchObject({
      state: 'PAUSED',
      pause: { by: 'system', reasonCode: 'merchant_suspended' },
    });
    given(held)
      .when({ type: 'ReleaseContract', contractId: ID, at: at('2027-02-01') })
      .thenState((c) => expect(c!.state).toBe('ACTIVE'));
    const byPartner = apply(created(), simple('PauseContract', '2027-01-31'));
    given(byPartner)
      .when({ type: 'ReleaseContract', contractId: ID, at: at('2027-02-01') })
      .thenThrows(ContractCommandInvalid);
  });

  it('an unpaid hosted plan is cancelled at its deadline, not before', () => {
    given(hppCreated())
      .when({ type: 'ExpireContractActivation', contractId: ID, at: new Date('2027-01-31T08:29:59.999Z') })
      .thenThrows(ContractCommandInvalid);
    given(hppCreated())
      .when({ type: 'ExpireContractActivation', contractId: ID, at: new Date('2027-01-31T08:30:00.000Z') })
      .thenState((c) =>
        expect(c).toMatchObject({
          state: 'CANCELLED',
          ending: { by: 'system', reasonCode: 'activation_expired' },
        }),
      );
  });

  it("a hosted plan's first payment is installment 1; the schedule goes on a period later", () => {
    const h = apply(hppCreated(), {
      type: 'ActivateContract',
      contractId: ID,
      at: at('2027-01-31', '08:10:00'),
      paymentMethod: CARD,
      initialTransactionId: tx(1),
      initialAmountMinor: 1500n,
    });
    const c = fold(h);
    expect(c).toMatchObject({
      state: 'ACTIVE',
      paidCount: 1,
      amountPaidMinor: '1500',
      startDate: '2027-01-31',
      nextInstallment: 2,
    });
    expect(nextChargeDate(c)).toBe('2027-02-28');
    expect(remainingInstallments(c)).toBe(2);
  });
});

describe('PATCH (UpdateContract)', () => {
  const update = (fields: object, date = '2027-02-01') => simple('UpdateContract', date, fields);

  it('next_charge_date re-anchors the schedule', () => {
    const h = apply(charge(created(), '2027-01-31'), update({ nextChargeDate: '2027-03-15' }));
    const c = fold(h);
    expect(nextChargeDate(c)).toBe('2027-03-15');
    expect(nextChargeDate(fold(charge(h, '2027-03-15')))).toBe('2027-04-15');
  });

  it('next_charge_date moves a pending retry', () => {
    const h = apply(charge(created(), '2027-01-31', soft), update({ nextChargeDate: '2027-02-10' }));
    expect(fold(h).retries[0]).toMatchObject({ installment: 1, attempt: 1, dueDate: '2027-02-10' });
  });

  it('an end_date before the next charge completes the contract', () => {
    const events = decide(update({ endDate: '2027-02-15' }), fold(charge(created(), '2027-01-31')));
    expect(events.map((e) => e.type)).toEqual(['ContractUpdated', 'ContractCompleted']);
  });

  it('end_date null removes it: open-ended again', () => {
    const h = apply(created({ endDate: '2027-06-30' }), update({ endDate: null }));
    expect(remainingInstallments(fold(h))).toBeNull();
  });

  it('names the field: end_date before start_date, next_charge_date after end_date', () => {
    given(created({ startDate: '2027-03-01', at: at('2027-01-31') }))
      .when(update({ endDate: '2027-02-15' }))
      .thenThrows(ContractInvalid, { errors: [{ field: 'end_date', message: expect.any(String) }] });
    given(created({ endDate: '2027-06-30' }))
      .when(update({ nextChargeDate: '2027-07-01' }))
      .thenThrows(ContractInvalid, { errors: [{ field: 'next_charge_date', message: expect.any(String) }] });
  });

  it('changing nothing records nothing', () =>
    given(created({ endDate: '2027-06-30' }))
      .when(update({ endDate: '2027-06-30' }))
      .then([]));
});
