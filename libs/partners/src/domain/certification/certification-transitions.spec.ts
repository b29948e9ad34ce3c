import { InvalidStateTransition } from '../../../../platform/src/problem';
import {
  CHECK_STATES,
  CHECK_TRANSITIONS,
  FLOW_STATUSES,
  FLOW_TRANSITIONS,
  RECERTIFICATION_REQUEST_STATES,
  RECERTIFICATION_REQUEST_TRANSITIONS,
  isResolved,
  nextCheckState,
  nextFlowStatus,
  nextRecertificationRequestState,
} from './certification-transitions';

/** Written out by hand: the table must agree with it, move for move. */
const CHECK_MOVES: Record<string, Record<string, string>> = {
  pass: { PENDING: 'PASSED', FAILED: 'PASSED' },
  await_admin_review: { PENDING: 'AWAITING_ADMIN_REVIEW' },
  waive: { PENDING: 'WAIVED', FAILED: 'WAIVED', AWAITING_ADMIN_REVIEW: 'WAIVED' },
};
const FLOW_MOVES: Record<string, Record<string, string>> = {
  complete: { ACTIVE: 'COMPLETED' },
  supersede: { COMPLETED: 'SUPERSEDED' },
};
const REQUEST_MOVES: Record<string, Record<string, string>> = { fulfil: { PENDING: 'FULFILLED' } };

function everyMove(
  name: string,
  actions: string[],
  states: readonly string[],
  expected: Record<string, Record<string, string>>,
  next: (action: string, from: string) => string,
) {
  describe(name, () => {
    it('has exactly the actions expected', () =>
      expect(actions.sort()).toEqual(Object.keys(expected).sort()));

    for (const action of Object.keys(expected)) {
      for (const from of states) {
        const to = expected[action][from];
        it(`${action} from ${from} is ${to ? `allowed (→ ${to})` : 'refused'}`, () => {
          if (to) expect(next(action, from)).toBe(to);
          else {
            expect(() => next(action, from)).toThrow(InvalidStateTransition);
            expect(() => next(action, from)).toThrow(expect.objectContaining({ from, action }));
          }
        });
      }
    }
  });
}

everyMove('check state transitions', Object.keys(CHECK_TRANSITIONS), CHECK_STATES, CHECK_MOVES, (a, f) =>
  nextCheckState(a as keyof typeof CHECK_TRANSITIONS, f as (typeof CHECK_STATES)[number]),
);
everyMove('flow status transitions', Object.keys(FLOW_TRANSITIONS), FLOW_STATUSES, FLOW_MOVES, (a, f) =>
  nextFlowStatus(a as keyof typeof FLOW_TRANSITIONS, f as (typeof FLOW_STATUSES)[number]),
);
everyMove(
  're-certification request transitions',
  Object.keys(RECERTIFICATION_REQUEST_TRANSITIONS),
  RECERTIFICATION_REQUEST_STATES,
  REQUEST_MOVES,
  (a, f) =>
    nextRecertificationRequestState(
      a as keyof typeof RECERTIFICATION_REQUEST_TRANSITIONS,
      f as (typeof RECERTIFICATION_REQUEST_STATES)[number],
    ),
);

describe('resolved check states', () => {
  it('are PASSED, WAIVED and SKIPPED', () =>
    expect(CHECK_STATES.filter(isResolved)).toEqual(['PASSED', 'WAIVED', 'SKIPPED']));

  it('are what certifying leaves: every unresolved state can be waived', () =>
    expect(CHECK_STATES.filter((s) => !isResolved(s))).toEqual(
      [...CHECK_TRANSITIONS.waive.from].sort((a, b) => CHECK_STATES.indexOf(a) - CHECK_STATES.indexOf(b)),
    ));
});
