import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { decide, MISSING_BATCH_KEY, type SettlementBatchCommand } from './decide';
import { evolve, initialState, type SettlementBatchOrNone } from './settlement-batch';
import { SettlementBatchInvalid, SettlementBatchNotFound } from './settlement-batch-errors';
import type { SettlementBatchEvent } from './settlement-batch-events';
import {
  canBatchTransition,
  SETTLEMENT_BATCH_ACTIONS,
  SETTLEMENT_BATCH_STATES,
  type SettlementBatchAction,
  type SettlementBatchState,
} from './settlement-batch-states';
import {
  AT,
  BATCH,
  cleanReport,
  DEBIT,
  EXPECTED_BY,
  ingest,
  LATE,
  member,
  open,
  opened,
  REPORT_AT,
} from './testing/fixtures';

const given = deciderSpec({ decide, evolve, initialState });

/** The events a sequence of commands produces, one after the other (to reach a state). */
function history(...commands: SettlementBatchCommand[]): SettlementBatchEvent[] {
  const events: SettlementBatchEvent[] = [];
  let state: SettlementBatchOrNone = initialState();
  for (const command of commands) {
    const produced = decide(command, state);
    events.push(...produced);
    state = produced.reduce(evolve, state);
  }
  return events;
}

const at = (iso: string) => new Date(iso);
const feeMismatch = () => ingest({}, { expectedFeesMinor: 150n });
const complete = (when = REPORT_AT): SettlementBatchCommand => ({
  type: 'CompleteReconciliation',
  batchId: BATCH,
  at: when,
});
const outcome = (
  state: 'MANUAL_RESOLVED' | 'WRITTEN_OFF' | 'ESCALATED' | 'AUTO_RESOLVED',
  key = 'FEE_MISMATCH',
): SettlementBatchCommand => ({
  type: 'RecordExceptionOutcome',
  batchId: BATCH,
  key,
  occurrence: 1,
  state,
  at: at('2026-11-23T09:00:00.000Z'),
});
const flagMissing = (when = LATE): SettlementBatchCommand => ({
  type: 'FlagMissingReport',
  batchId: BATCH,
  at: when,
});

/** A history that ends in each state (the batch's exception, where it has one, is a FEE_MISMATCH). */
const HISTORIES: Record<SettlementBatchState | 'NONE', () => SettlementBatchEvent[]> = {
  NONE: () => [],
  PENDING: () => history(open()),
  RECONCILING: () => history(open(), feeMismatch()),
  EXCEPTION: () => history(open(), feeMismatch(), complete()),
  RECONCILED: () => history(open(), ingest(), complete()),
  CLOSED_WITH_EXCEPTIONS: () => history(open(), feeMismatch(), complete(), outcome('WRITTEN_OFF')),
};

describe('the batch state machine as data', () => {
  /** Written from docs/settlement.md ("Batch states"), not read from the table. */
  const ALLOWED: Record<SettlementBatchAction, readonly (SettlementBatchState | 'NONE')[]> = {
    open: ['NONE'],
    ingest_report: ['PENDING', 'RECONCILING', 'EXCEPTION'],
    report_missing: ['PENDING'],
    hold: ['RECONCILING'],
    await_report: ['EXCEPTION'],
    reconcile: ['RECONCILING', 'EXCEPTION'],
    close_with_exceptions: ['RECONCILING', 'EXCEPTION'],
    record_exception_outcome: ['RECONCILING', 'EXCEPTION'],
  };
  const cases = SETTLEMENT_BATCH_ACTIONS.flatMap((action) =>
    (['NONE', ...SETTLEMENT_BATCH_STATES] as const).map((state) => [action, state] as const),
  );

  it.each(cases)('%s from %s', (action, state) =>
    expect(canBatchTransition(action, state === 'NONE' ? null : state)).toBe(ALLOWED[action].includes(state)),
  );

  it('reaches every state from a history', () => {
    for (const [state, events] of Object.entries(HISTORIES)) {
      const folded = events().reduce(evolve, initialState());
      expect(folded?.state ?? 'NONE').toBe(state);
    }
  });
});

describe('every command from every state: given a history, when a command, then its events or its refusal', () => {
  type Outcome = readonly SettlementBatchEvent['type'][] | 'refused' | 'not found';
  const COMMANDS: Record<string, () => SettlementBatchCommand> = {
    open: () => open(),
    'a report': () => ingest(),
    'the sweep, past expected_by': () => flagMissing(),
    'complete reconciliation': () => complete(),
    'an exception resolved': () => outcome('MANUAL_RESOLVED'),
  };
  const EXPECTED: Record<SettlementBatchState | 'NONE', Record<string, Outcome>> = {
    NONE: {
      open: ['SettlementBatchOpened'],
      'a report': 'not found',
      'the sweep, past expected_by': 'not found',
      'complete reconciliation': 'not found',
      'an exception resolved': 'not found',
    },
    PENDING: {
      open: 'refused',
      'a report': ['SettlementReportIngested'],
      'the sweep, past expected_by': ['SettlementBatchReportMissing'],
      'complete reconciliation': 'refused',
      // The batch has no such exception: nothing to record.
      'an exception resolved': [],
    },
    RECONCILING: {
      open: 'refused',
      'a report': ['SettlementReportIngested'],
      'the sweep, past expected_by': 'refused',
      'complete reconciliation': ['SettlementBatchHeld'],
      'an exception resolved': ['SettlementBatchExceptionOutcomeRecorded'],
    },
    EXCEPTION: {
      open: 'refused',
      'a report': ['SettlementReportIngested'],
      'the sweep, past expected_by': 'refused',
      'complete reconciliation': 'refused',
      'an exception resolved': ['SettlementBatchExceptionOutcomeRecorded', 'SettlementBatchReconciled'],
    },
    RECONCILED: {
      open: 'refused',
      'a report': 'refused',
      'the sweep, past expected_by': 'refused',
      'complete reconciliation': 'refused',
      'an exception resolved': [],
    },
    CLOSED_WITH_EXCEPTIONS: {
      open: 'refused',
      'a report': 'refused',
      'the sweep, past expected_by': 'refused',
      'complete reconciliation': 'refused',
      'an exception resolved': 'refused',
    },
  };
  const cases = Object.entries(EXPECTED).flatMap(([state, row]) =>
    Object.entries(row).map(([command, expected]) => [state, command, expected] as const),
  );

  it.each(cases)('given %s, when %s', (state, command, expected) => {
    const when = given(HISTORIES[state as SettlementBatchState | 'NONE']()).when(COMMANDS[command]());
    if (expected === 'refused') when.thenThrows(InvalidStateTransition, { code: 'invalid_state_transition' });
    else if (expected === 'not found')
      when.thenThrows(SettlementBatchNotFound, { code: 'settlement_batch_not_found' });
    else when.thenState((_, events) => expect(events.map((e) => e.type)).toEqual(expected));
  });
});

describe('opening a settlement batch', () => {
  it('records the members signed as money to the merchant, the totals and the banking dates', () =>
    given([]).when(open()).then([opened()]));

  it('is PENDING and gateway_reported, with every member observed and nothing reconciled', () =>
    given([])
      .when(open())
      .thenState((batch) =>
        expect(batch).toMatchObject({
          id: BATCH,
          state: 'PENDING',
          reportingBasis: 'gateway_reported',
          vendorStatus: 'PENDING',
          triggerType: 'operator_run',
          transactionCount: 3,
          totalAmountMinor: '6470',
          expectedSettledCount: 3,
          observedMemberCount: 3,
          observedMemberAmountMinor: '6470',
          feesMinor: null,
          netAmountMinor: null,
          processorBatchId: null,
          closedSettlementBatchId: null,
          reconciledAt: null,
          heldReason: null,
          completedAtUtc: AT.toISOString(),
          createdAt: AT.toISOString(),
          version: 1,
        }),
      ));

  it('signs refunds and reversals negative, so a batch of refunds totals below zero', () =>
    given([])
      .when(
        open({
          members: [
            member({ type: 'REFUND', grossAmountMinor: 700n }),
            member({ transactionId: DEBIT, rail: 'ACH', type: 'ACH_REVERSAL', grossAmountMinor: 300n }),
          ],
        }),
      )
      .thenState((batch) => {
        expect(batch!.members.map((m) => m.amountMinor)).toEqual(['-700', '-300']);
        expect(batch!.totalAmountMinor).toBe('-1000');
      }));

  it('opens no empty batch', () =>
    given([])
      .when(open({ members: [] }))
      .thenThrows(SettlementBatchInvalid));

  it('refuses a transaction twice, another currency, or a type that does not settle', () => {
    given([])
      .when(open({ members: [member({}), member({})] }))
      .thenThrows(SettlementBatchInvalid);
    given([])
      .when(open({ members: [member({ currency: 'EUR' })] }))
      .thenThrows(SettlementBatchInvalid);
    given([])
      .when(open({ members: [member({ type: 'VOID' })] }))
      .thenThrows(SettlementBatchInvalid);
  });
});

describe('a processor report', () => {
  it('that matches makes the batch report_verified and RECONCILING, every member MATCHED, fees and net known', () =>
    given(history(open()))
      .when(ingest())
      .thenState((batch, events) => {
        expect(events[0]).toMatchObject({
          type: 'SettlementReportIngested',
          data: { opened: [], autoResolved: [], feesMinor: '100', netAmountMinor: '6370', lineCount: 3 },
        });
        expect(batch).toMatchObject({
          state: 'RECONCILING',
          reportingBasis: 'report_verified',
          vendorStatus: 'PENDING',
          processorBatchId: 'pb_1',
          vendorSettlementBatchId: 'vs_1',
          feesMinor: '100',
          netAmountMinor: '6370',
          observedMemberCount: 3,
          observedMemberAmountMinor: '6470',
          reportCount: 1,
        });
        expect(batch!.members.map((m) => m.matchState)).toEqual(['MATCHED', 'MATCHED', 'MATCHED']);
      }));

  it('without differences reconciles the batch: RECONCILED, payout released, closed under csb_', () =>
    given(history(open(), ingest()))
      .when(complete())
      .thenState((batch, events) => {
        expect(events).toEqual([
          {
            type: 'SettlementBatchReconciled',
            data: {
              batchId: BATCH,
              closedSettlementBatchId: 'csb_0b6f3a528a0e4d3c',
              feesMinor: '100',
              netAmountMinor: '6370',
              reconciledAt: REPORT_AT.toISOString(),
            },
          },
        ]);
        expect(batch).toMatchObject({
          state: 'RECONCILED',
          vendorStatus: 'RELEASED',
          reconciledAt: REPORT_AT.toISOString(),
          heldReason: null,
        });
      }));

  it('with a difference opens it and holds the payout, saying why', () =>
    given(history(open(), feeMismatch()))
      .when(complete())
      .thenState((batch, events) => {
        expect(events[0]).toMatchObject({
          type: 'SettlementBatchHeld',
          data: { outstanding: [{ key: 'FEE_MISMATCH', occurrence: 1 }] },
        });
        expect(batch).toMatchObject({
          state: 'EXCEPTION',
          vendorStatus: 'HELD',
          heldReason: 'payout held: 1 outstanding reconciliation exception (FEE_MISMATCH)',
        });
      }));

  it('that no longer shows a difference auto-resolves its exception; the same difference later is a new occurrence', () => {
    const fixed = history(open(), feeMismatch(), complete(), ingest());
    given(fixed)
      .when(complete())
      .thenState((batch) => expect(batch).toMatchObject({ state: 'RECONCILED' }));
    expect(fixed.at(-1)).toMatchObject({
      type: 'SettlementReportIngested',
      data: { autoResolved: [{ key: 'FEE_MISMATCH', occurrence: 1 }], opened: [] },
    });
    given(fixed)
      .when(feeMismatch())
      .thenState((_, events) =>
        expect(events[0]).toMatchObject({ data: { opened: [{ key: 'FEE_MISMATCH', occurrence: 2 }] } }),
      );
  });

  it('that still shows an outstanding difference opens it only once', () =>
    given(history(open(), feeMismatch(), complete()))
      .when(feeMismatch())
      .thenState((batch, events) => {
        expect(events[0]).toMatchObject({ data: { opened: [], autoResolved: [] } });
        expect(batch!.exceptions.FEE_MISMATCH).toMatchObject({ occurrence: 1, state: 'OPEN' });
      }));

  it('does not reopen a difference an operator decided on', () => {
    // The refund's line is missing and the fees are off; the operator resolves the fees only.
    const twoDifferences = () =>
      ingest(
        { lines: cleanReport().lines.slice(0, 2), totalAmountMinor: 7500n },
        { expectedFeesMinor: 150n },
      );
    const decided = history(open(), twoDifferences(), complete(), outcome('MANUAL_RESOLVED'));
    expect(decided.reduce(evolve, initialState())).toMatchObject({ state: 'EXCEPTION' });
    given(decided)
      .when(twoDifferences())
      .thenState((batch, events) => {
        expect(events[0]).toMatchObject({ data: { opened: [], autoResolved: [] } });
        expect(batch!.exceptions.FEE_MISMATCH).toMatchObject({ occurrence: 1, state: 'MANUAL_RESOLVED' });
      });
  });

  it('keeps an escalated exception outstanding; it is resolved later and the batch reconciles', () => {
    const escalated = history(open(), feeMismatch(), complete(), outcome('ESCALATED'));
    expect(escalated.reduce(evolve, initialState())).toMatchObject({ state: 'EXCEPTION' });
    given(escalated)
      .when(outcome('MANUAL_RESOLVED'))
      .thenState((batch) => expect(batch).toMatchObject({ state: 'RECONCILED' }));
  });

  it('a written-off difference closes the batch with exceptions', () =>
    given(history(open(), feeMismatch(), complete()))
      .when(outcome('WRITTEN_OFF'))
      .thenState((batch, events) => {
        expect(events.map((e) => e.type)).toEqual([
          'SettlementBatchExceptionOutcomeRecorded',
          'SettlementBatchClosedWithExceptions',
        ]);
        expect(events[1]).toMatchObject({ data: { writtenOff: [{ key: 'FEE_MISMATCH', occurrence: 1 }] } });
        expect(batch).toMatchObject({
          state: 'CLOSED_WITH_EXCEPTIONS',
          vendorStatus: 'RELEASED',
          closedSettlementBatchId: 'csb_0b6f3a528a0e4d3c',
        });
      }));

  it('refuses negative fees', () =>
    given(history(open()))
      .when(ingest({ feesMinor: -1n }))
      .thenThrows(SettlementBatchInvalid));
});

describe('a missing report (the sweep)', () => {
  it('is flagged only after expected_by', () => {
    given(history(open()))
      .when(flagMissing(new Date(EXPECTED_BY)))
      .thenThrows(SettlementBatchInvalid);
    given(history(open()))
      .when(flagMissing())
      .then([
        {
          type: 'SettlementBatchReportMissing',
          data: {
            batchId: BATCH,
            key: MISSING_BATCH_KEY,
            occurrence: 1,
            expectedBy: EXPECTED_BY,
            at: LATE.toISOString(),
          },
        },
      ]);
  });

  it('holds the payout, and the report that arrives auto-resolves it', () => {
    const missing = history(open(), flagMissing());
    expect(missing.reduce(evolve, initialState())).toMatchObject({
      state: 'EXCEPTION',
      heldReason: 'payout held: 1 outstanding reconciliation exception (MISSING_BATCH)',
    });
    given(missing)
      .when(ingest({}, {}, LATE))
      .thenState((batch, events) => {
        expect(events[0]).toMatchObject({
          data: { autoResolved: [{ key: MISSING_BATCH_KEY, occurrence: 1 }] },
        });
        expect(batch).toMatchObject({ state: 'RECONCILING' });
      });
  });

  it('resolved by an operator without a report: the batch waits for its report again (PENDING), not flagged again', () => {
    const waiting = history(open(), flagMissing(), outcome('MANUAL_RESOLVED', MISSING_BATCH_KEY));
    expect(waiting.at(-1)).toMatchObject({ type: 'SettlementBatchAwaitingReport' });
    expect(waiting.reduce(evolve, initialState())).toMatchObject({
      state: 'PENDING',
      vendorStatus: 'PENDING',
    });
    given(waiting).when(flagMissing()).then([]);
  });

  it('written off: the batch closes on the gateway’s figures, without fees', () =>
    given(history(open(), flagMissing()))
      .when(outcome('WRITTEN_OFF', MISSING_BATCH_KEY))
      .thenState((batch, events) => {
        expect(events[1]).toMatchObject({
          type: 'SettlementBatchClosedWithExceptions',
          data: { feesMinor: null, netAmountMinor: '6470' },
        });
        expect(batch).toMatchObject({ state: 'CLOSED_WITH_EXCEPTIONS', reportingBasis: 'gateway_reported' });
      }));
});
