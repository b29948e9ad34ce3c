import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { evolveException, initialExceptionState } from './reconciliation-exception';
import { decideException, type ReconciliationExceptionCommand } from './reconciliation-exception-decide';
import {
  ReconciliationExceptionInvalid,
  ReconciliationExceptionNotFound,
} from './reconciliation-exception-errors';
import type { ReconciliationExceptionEvent } from './reconciliation-exception-events';
import {
  canExceptionTransition,
  EXCEPTION_ACTIONS,
  EXCEPTION_STATES,
  type ExceptionAction,
  type ExceptionState,
} from './reconciliation-exception-rules';

const given = deciderSpec({
  decide: decideException,
  evolve: evolveException,
  initialState: initialExceptionState,
});
const ID = '5a0e1c2d-3b4f-4a6b-8c7d-9e0f1a2b3c4d';
const at = (minute: number) => new Date(`2026-11-23T09:${String(minute).padStart(2, '0')}:00.000Z`);

const openedEvent = (): ReconciliationExceptionEvent => ({
  type: 'ReconciliationExceptionOpened',
  data: {
    exceptionId: ID,
    batchId: '0b6f3a52-8a0e-4d3c-9a61-5c2f0e7d9b11',
    merchantId: '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
    partnerId: '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10',
    transactionId: null,
    type: 'FEE_MISMATCH',
    key: 'FEE_MISMATCH',
    occurrence: 1,
    severity: 'LOW',
    description: 'fees differ',
    expectedBy: '2026-11-24T23:59:59.999Z',
    observedAt: '2026-11-23T08:00:00.000Z',
    currency: 'USD',
    expectedAmountMinor: '100',
    observedAmountMinor: '120',
    openedAt: at(0).toISOString(),
  },
});
const {
  exceptionId: _,
  openedAt: __,
  ...openData
} = openedEvent().data as Extract<
  ReconciliationExceptionEvent,
  { type: 'ReconciliationExceptionOpened' }
>['data'];
const open = (): ReconciliationExceptionCommand => ({
  type: 'OpenReconciliationException',
  exceptionId: ID,
  data: openData,
  at: at(0),
});
const resolve = (
  state: 'MANUAL_RESOLVED' | 'WRITTEN_OFF' | 'ESCALATED',
  resolution = 'checked with the processor',
): ReconciliationExceptionCommand => ({
  type: 'ResolveReconciliationException',
  exceptionId: ID,
  state,
  resolvedBy: 'platform-operator',
  resolution,
  at: at(5),
});
const autoResolve = (): ReconciliationExceptionCommand => ({
  type: 'AutoResolveReconciliationException',
  exceptionId: ID,
  resolvedBy: 'system:reconciliation',
  resolution: 'a later report no longer shows it',
  at: at(7),
});
const event = (type: string, data: Record<string, unknown>) =>
  ({ type, data: { exceptionId: ID, ...data } }) as ReconciliationExceptionEvent;

const HISTORIES: Record<ExceptionState | 'NONE', ReconciliationExceptionEvent[]> = {
  NONE: [],
  OPEN: [openedEvent()],
  ESCALATED: [
    openedEvent(),
    event('ReconciliationExceptionEscalated', {
      resolvedBy: 'platform-operator',
      resolution: 'to the processor',
      at: at(1).toISOString(),
    }),
  ],
  MANUAL_RESOLVED: [
    openedEvent(),
    event('ReconciliationExceptionResolved', {
      state: 'MANUAL_RESOLVED',
      resolvedBy: 'platform-operator',
      resolution: 'fixed',
      at: at(1).toISOString(),
    }),
  ],
  WRITTEN_OFF: [
    openedEvent(),
    event('ReconciliationExceptionResolved', {
      state: 'WRITTEN_OFF',
      resolvedBy: 'platform-operator',
      resolution: 'accepted',
      at: at(1).toISOString(),
    }),
  ],
  AUTO_RESOLVED: [
    openedEvent(),
    event('ReconciliationExceptionAutoResolved', {
      resolvedBy: 'system:reconciliation',
      resolution: 'gone',
      at: at(1).toISOString(),
    }),
  ],
};

describe('the reconciliation exception state machine', () => {
  /** Written from docs/reconciliation.md ("States"). */
  const ALLOWED: Record<ExceptionAction, readonly (ExceptionState | 'NONE')[]> = {
    open: ['NONE'],
    escalate: ['OPEN'],
    resolve_manually: ['OPEN', 'ESCALATED'],
    write_off: ['OPEN', 'ESCALATED'],
    auto_resolve: ['OPEN', 'ESCALATED'],
  };
  const COMMAND: Record<ExceptionAction, () => ReconciliationExceptionCommand> = {
    open,
    escalate: () => resolve('ESCALATED'),
    resolve_manually: () => resolve('MANUAL_RESOLVED'),
    write_off: () => resolve('WRITTEN_OFF'),
    auto_resolve: autoResolve,
  };
  const TO: Record<ExceptionAction, ExceptionState> = {
    open: 'OPEN',
    escalate: 'ESCALATED',
    resolve_manually: 'MANUAL_RESOLVED',
    write_off: 'WRITTEN_OFF',
    auto_resolve: 'AUTO_RESOLVED',
  };
  const cases = EXCEPTION_ACTIONS.flatMap((action) =>
    (['NONE', ...EXCEPTION_STATES] as const).map((state) => [action, state] as const),
  );

  it.each(cases)('given %s from %s', (action, state) => {
    expect(canExceptionTransition(action, state === 'NONE' ? null : state)).toBe(
      ALLOWED[action].includes(state),
    );
    const when = given(HISTORIES[state]).when(COMMAND[action]());
    if (ALLOWED[action].includes(state))
      when.thenState((exception) => expect(exception!.state).toBe(TO[action]));
    else if (state === 'NONE')
      when.thenThrows(ReconciliationExceptionNotFound, { code: 'reconciliation_exception_not_found' });
    else when.thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from: state });
  });
});

describe('resolving an exception', () => {
  it('records the operator and the resolution', () =>
    given([openedEvent()])
      .when(resolve('WRITTEN_OFF', '  processor confirmed the loss  '))
      .thenState((exception, events) => {
        expect(events).toEqual([
          event('ReconciliationExceptionResolved', {
            state: 'WRITTEN_OFF',
            resolvedBy: 'platform-operator',
            resolution: 'processor confirmed the loss',
            at: at(5).toISOString(),
          }),
        ]);
        expect(exception).toMatchObject({
          state: 'WRITTEN_OFF',
          resolvedBy: 'platform-operator',
          resolvedAt: at(5).toISOString(),
          resolution: 'processor confirmed the loss',
          version: 2,
        });
      }));

  it('escalating keeps it outstanding, with who escalated and why', () =>
    given([openedEvent()])
      .when(resolve('ESCALATED', 'sent to the processor'))
      .thenState((exception) =>
        expect(exception).toMatchObject({
          state: 'ESCALATED',
          resolvedBy: 'platform-operator',
          resolution: 'sent to the processor',
        }),
      ));

  it('refuses a blank resolution', () =>
    given([openedEvent()])
      .when(resolve('MANUAL_RESOLVED', '   '))
      .thenThrows(ReconciliationExceptionInvalid));

  it('opening records every fact of the difference', () =>
    given([])
      .when(open())
      .thenState((exception) =>
        expect(exception).toMatchObject({
          id: ID,
          state: 'OPEN',
          type: 'FEE_MISMATCH',
          severity: 'LOW',
          expectedAmountMinor: '100',
          observedAmountMinor: '120',
          resolvedBy: null,
          resolvedAt: null,
          resolution: null,
          createdAt: at(0).toISOString(),
        }),
      ));
});
