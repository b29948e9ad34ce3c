import { InvalidStateTransition } from '../../../platform/src/problem';

/**
 * The terminal state machine, as data. The spec names the states and leaves the moves open;
 * they are decided here (docs/terminals.md gives the reasons):
 *
 * 1. `create` (POST /terminals) records a terminal UNASSIGNED: registered to a merchant, no
 *    device holds a key for it yet.
 * 2. `provision`: UNASSIGNED → PROVISIONED, issuing the terminal's key (shown once). Only from
 *    UNASSIGNED: a key that was lost later is replaced by `rotate_api_key`.
 * 3. `heartbeat` (the terminal, with its key): PROVISIONED → ACTIVE, its first sign of life; in
 *    ACTIVE, SUSPENDED and MAINTENANCE it is recorded and the state stays.
 * 4. `rotate_api_key`: in every state that has a key (PROVISIONED, ACTIVE, SUSPENDED,
 *    MAINTENANCE); the state stays. SUSPENDED included: a key suspected stolen is replaced
 *    before the terminal is reactivated.
 * 5. `suspend`: from PROVISIONED, ACTIVE or MAINTENANCE; the state left is remembered.
 *    Not from UNASSIGNED (nothing to stop: decommission it instead).
 * 6. `reactivate`: SUSPENDED → exactly the state it was suspended from.
 * 7. `start_maintenance`: ACTIVE → MAINTENANCE; `end_maintenance`: MAINTENANCE → ACTIVE. A
 *    suspended terminal is reactivated first.
 * 8. `decommission`: from every state but DECOMMISSIONED; the key stops working at once.
 *    DECOMMISSIONED is terminal: every action from it is refused.
 *
 * A forbidden (state, action) pair is 409 `invalid_state_transition`.
 */
export const TERMINAL_STATES = [
  'UNASSIGNED',
  'PROVISIONED',
  'ACTIVE',
  'SUSPENDED',
  'MAINTENANCE',
  'DECOMMISSIONED',
] as const;
export type TerminalState = (typeof TERMINAL_STATES)[number];

/** `SUSPENDED_FROM`: back to the state the terminal was suspended from. */
export type TerminalTarget = TerminalState | 'SUSPENDED_FROM';

/** The states in which the terminal holds a key (everything between provisioning and the end). */
const KEYED = ['PROVISIONED', 'ACTIVE', 'SUSPENDED', 'MAINTENANCE'] as const;
const inPlace = Object.fromEntries(KEYED.map((state) => [state, state])) as Record<
  (typeof KEYED)[number],
  TerminalState
>;

/** action → { state it is allowed from: where it goes }. A state not listed refuses the action. */
export const TERMINAL_TRANSITIONS = {
  provision: { UNASSIGNED: 'PROVISIONED' },
  rotate_api_key: inPlace,
  heartbeat: { ...inPlace, PROVISIONED: 'ACTIVE' },
  suspend: { PROVISIONED: 'SUSPENDED', ACTIVE: 'SUSPENDED', MAINTENANCE: 'SUSPENDED' },
  reactivate: { SUSPENDED: 'SUSPENDED_FROM' },
  start_maintenance: { ACTIVE: 'MAINTENANCE' },
  end_maintenance: { MAINTENANCE: 'ACTIVE' },
  decommission: {
    UNASSIGNED: 'DECOMMISSIONED',
    PROVISIONED: 'DECOMMISSIONED',
    ACTIVE: 'DECOMMISSIONED',
    SUSPENDED: 'DECOMMISSIONED',
    MAINTENANCE: 'DECOMMISSIONED',
  },
} as const satisfies Record<string, Partial<Record<TerminalState, TerminalTarget>>>;

export type TerminalAction = keyof typeof TERMINAL_TRANSITIONS;

/**
 * The state `action` leads to, or 409 `invalid_state_transition`. `terminal` supplies the state a
 * suspended terminal left (for `reactivate`).
 */
export function nextTerminalState(
  action: TerminalAction,
  terminal: { state: TerminalState; suspendedFrom: TerminalState | null },
): TerminalState {
  const moves: Partial<Record<TerminalState, TerminalTarget>> = TERMINAL_TRANSITIONS[action];
  const to = moves[terminal.state];
  if (!to) throw new InvalidStateTransition('terminal', terminal.state, action);
  if (to !== 'SUSPENDED_FROM') return to;
  if (!terminal.suspendedFrom) throw new InvalidStateTransition('terminal', terminal.state, action);
  return terminal.suspendedFrom;
}
