import type { DomainEvent } from '../../libs/event-store/src/handle-command';

/**
 * Given/when/then for pure deciders: fold the history with `evolve`, call `decide`, compare.
 *
 *   given([created()]).when(submit).then([submitted()])
 *   given([created(), submitted()]).when(submit).thenThrows(InvalidStateTransition, { from: 'SUBMITTED' })
 */
export function deciderSpec<C, S, E extends DomainEvent>(decider: {
  decide: (command: C, state: S) => E[];
  evolve: (state: S, event: E) => S;
  initialState: () => S;
}) {
  return (history: E[]) => ({
    when: (command: C) => {
      const run = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
      return {
        then: (expected: E[]) => expect(run()).toEqual(expected),
        thenState: (check: (state: S, events: E[]) => void) => {
          const events = run();
          check(
            events.reduce(decider.evolve, history.reduce(decider.evolve, decider.initialState())),
            events,
          );
        },
        thenThrows: (
          type: abstract new (...args: never[]) => Error,
          fields: Record<string, unknown> = {},
        ) => {
          let thrown: unknown;
          try {
            run();
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(type);
          expect(thrown).toMatchObject(fields);
        },
      };
    },
  });
}

/** The state a list of commands leaves, each decided on the state the ones before it left. */
export function stateAfter<C, S, E extends DomainEvent>(
  decider: {
    decide: (command: C, state: S) => E[];
    evolve: (state: S, event: E) => S;
    initialState: () => S;
  },
  commands: readonly C[],
): S {
  let state = decider.initialState();
  for (const command of commands)
    for (const event of decider.decide(command, state)) state = decider.evolve(state, event);
  return state;
}
