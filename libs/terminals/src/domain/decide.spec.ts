import { deciderSpec } from '../../../../test/support/decider-spec';
import { InvalidStateTransition } from '../../../platform/src/problem';
import { decide, HEARTBEAT_RECORD_INTERVAL_SECONDS, type TerminalCommand } from './decide';
import { evolve, initialState, type Terminal, type TerminalStateOrNone } from './terminal';
import { TerminalInvalid, TerminalNotFound } from './terminal-errors';
import type { TerminalEvent } from './terminal-events';
import {
  TERMINAL_STATES,
  TERMINAL_TRANSITIONS,
  type TerminalAction,
  type TerminalState,
} from './terminal-states';

const given = deciderSpec<TerminalCommand, TerminalStateOrNone, TerminalEvent>({
  decide,
  evolve,
  initialState,
});

const ID = '5d0c1a9e-2b7f-4c61-8f3a-0e9d8c7b6a51';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const ids = { terminalId: ID, merchantId: MERCHANT, partnerId: PARTNER };
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-01T11:00:00.000Z');
const KEY = { keyPrefix: 'AbCd1234', keyHash: 'a'.repeat(64) };
const NEW_KEY = { keyPrefix: 'ZyXw9876', keyHash: 'b'.repeat(64) };

const at = (date: Date) => date.toISOString();
const seconds = (s: number) => new Date(T0.getTime() + s * 1000);

// The events of the paths below, all at T0.
const created = (): TerminalEvent => ({
  type: 'TerminalCreated',
  data: { ...ids, serialNumber: 'PAX-A920-0820123456', model: 'PAX A920 Pro', createdAt: at(T0) },
});
const provisioned = (): TerminalEvent => ({
  type: 'TerminalProvisioned',
  data: { ...ids, ...KEY, provisionedAt: at(T0) },
});
const heartbeatAt = (date: Date, firmwareVersion: string | null = null): TerminalEvent => ({
  type: 'TerminalHeartbeatRecorded',
  data: { ...ids, firmwareVersion, receivedAt: at(date) },
});
const activatedAt = (date: Date): TerminalEvent => ({
  type: 'TerminalActivated',
  data: { ...ids, activatedAt: at(date) },
});
const suspendedFrom = (from: TerminalState): TerminalEvent => ({
  type: 'TerminalSuspended',
  data: { ...ids, from, suspendedAt: at(T0) },
});
const maintenanceStarted = (): TerminalEvent => ({
  type: 'TerminalMaintenanceStarted',
  data: { ...ids, startedAt: at(T0) },
});
const decommissioned = (): TerminalEvent => ({
  type: 'TerminalDecommissioned',
  data: { ...ids, decommissionedAt: at(T0) },
});

const ACTIVE_PATH = [created(), provisioned(), heartbeatAt(T0), activatedAt(T0)];

/** A history that ends in each state (SUSPENDED: suspended while ACTIVE). */
const HISTORY_TO: Record<TerminalState, TerminalEvent[]> = {
  UNASSIGNED: [created()],
  PROVISIONED: [created(), provisioned()],
  ACTIVE: ACTIVE_PATH,
  SUSPENDED: [...ACTIVE_PATH, suspendedFrom('ACTIVE')],
  MAINTENANCE: [...ACTIVE_PATH, maintenanceStarted()],
  DECOMMISSIONED: [...ACTIVE_PATH, decommissioned()],
};

const fold = (events: TerminalEvent[]) => events.reduce(evolve, initialState());

const create = (
  fields: Partial<Extract<TerminalCommand, { type: 'CreateTerminal' }>> = {},
): TerminalCommand => ({
  type: 'CreateTerminal',
  ...ids,
  serialNumber: 'PAX-A920-0820123456',
  model: 'PAX A920 Pro',
  at: T0,
  ...fields,
});
const heartbeat = (date: Date, firmwareVersion: string | null = null): TerminalCommand => ({
  type: 'RecordTerminalHeartbeat',
  terminalId: ID,
  firmwareVersion,
  at: date,
});

/** One command per action of the table, at T1 (an hour after every event of the paths). */
const COMMAND_FOR: Record<TerminalAction, TerminalCommand> = {
  provision: { type: 'ProvisionTerminal', terminalId: ID, ...NEW_KEY, at: T1 },
  rotate_api_key: { type: 'RotateTerminalApiKey', terminalId: ID, ...NEW_KEY, at: T1 },
  heartbeat: heartbeat(T1),
  suspend: { type: 'SuspendTerminal', terminalId: ID, at: T1 },
  reactivate: { type: 'ReactivateTerminal', terminalId: ID, at: T1 },
  start_maintenance: { type: 'StartTerminalMaintenance', terminalId: ID, at: T1 },
  end_maintenance: { type: 'EndTerminalMaintenance', terminalId: ID, at: T1 },
  decommission: { type: 'DecommissionTerminal', terminalId: ID, at: T1 },
};

/**
 * The moves of docs/terminals.md, written out by hand (not read from the table): for each action,
 * the events it records and where it leads from each state that allows it. Every state missing
 * from `moves` refuses the action with 409.
 */
const EXPECTED: Record<
  TerminalAction,
  { events: string[]; moves: Partial<Record<TerminalState, TerminalState>> }
> = {
  provision: { events: ['TerminalProvisioned'], moves: { UNASSIGNED: 'PROVISIONED' } },
  rotate_api_key: {
    events: ['TerminalApiKeyRotated'],
    moves: {
      PROVISIONED: 'PROVISIONED',
      ACTIVE: 'ACTIVE',
      SUSPENDED: 'SUSPENDED',
      MAINTENANCE: 'MAINTENANCE',
    },
  },
  heartbeat: {
    events: ['TerminalHeartbeatRecorded'],
    moves: { PROVISIONED: 'ACTIVE', ACTIVE: 'ACTIVE', SUSPENDED: 'SUSPENDED', MAINTENANCE: 'MAINTENANCE' },
  },
  suspend: {
    events: ['TerminalSuspended'],
    moves: { PROVISIONED: 'SUSPENDED', ACTIVE: 'SUSPENDED', MAINTENANCE: 'SUSPENDED' },
  },
  // The SUSPENDED path was suspended while ACTIVE.
  reactivate: { events: ['TerminalReactivated'], moves: { SUSPENDED: 'ACTIVE' } },
  start_maintenance: { events: ['TerminalMaintenanceStarted'], moves: { ACTIVE: 'MAINTENANCE' } },
  end_maintenance: { events: ['TerminalMaintenanceEnded'], moves: { MAINTENANCE: 'ACTIVE' } },
  decommission: {
    events: ['TerminalDecommissioned'],
    moves: {
      UNASSIGNED: 'DECOMMISSIONED',
      PROVISIONED: 'DECOMMISSIONED',
      ACTIVE: 'DECOMMISSIONED',
      SUSPENDED: 'DECOMMISSIONED',
      MAINTENANCE: 'DECOMMISSIONED',
    },
  },
};

describe('the terminal state machine: every (state, action) pair', () => {
  it('the paths reach the states they are named after', () => {
    for (const state of TERMINAL_STATES) expect(fold(HISTORY_TO[state])?.state).toBe(state);
  });

  it('the table covers exactly the expected actions', () =>
    expect(Object.keys(TERMINAL_TRANSITIONS).sort()).toEqual(Object.keys(EXPECTED).sort()));

  const pairs = TERMINAL_STATES.flatMap((from) =>
    (Object.keys(EXPECTED) as TerminalAction[]).map((action) => ({ from, action })),
  );
  it.each(pairs)('$action from $from', ({ from, action }) => {
    const expected = EXPECTED[action];
    const to = expected.moves[from];
    const when = given(HISTORY_TO[from]).when(COMMAND_FOR[action]);
    if (!to) {
      when.thenThrows(InvalidStateTransition, { code: 'invalid_state_transition', from, action });
      return;
    }
    when.thenState((terminal, events) => {
      // The first heartbeat of a PROVISIONED terminal also activates it.
      const activation = action === 'heartbeat' && from === 'PROVISIONED' ? ['TerminalActivated'] : [];
      expect(events.map((e) => e.type)).toEqual([...expected.events, ...activation]);
      expect(terminal?.state).toBe(to);
    });
  });

  it.each(TERMINAL_STATES)('create over a terminal in %s is 409', (state) =>
    given(HISTORY_TO[state])
      .when(create())
      .thenThrows(InvalidStateTransition, { from: state, action: 'create' }),
  );
});

describe('create', () => {
  it('registers the terminal UNASSIGNED, without key, heartbeat or firmware', () =>
    given([])
      .when(create())
      .thenState((terminal, events) => {
        expect(events).toEqual([created()]);
        expect(terminal).toEqual({
          id: ID,
          merchantId: MERCHANT,
          partnerId: PARTNER,
          serialNumber: 'PAX-A920-0820123456',
          model: 'PAX A920 Pro',
          firmwareVersion: null,
          state: 'UNASSIGNED',
          suspendedFrom: null,
          apiKey: null,
          lastHeartbeatAt: null,
          createdAt: at(T0),
          version: 1,
        });
      }));

  it('trims the model', () =>
    given([])
      .when(create({ model: '  Verifone V400m ' }))
      .thenState((terminal) => expect(terminal?.model).toBe('Verifone V400m')));

  it.each(['A', '275-123-456', 'WSC513106000123', 'abc.DEF_12-3', 'X'.repeat(64)])(
    'accepts the serial number %s as sent',
    (serialNumber) =>
      given([])
        .when(create({ serialNumber }))
        .thenState((terminal) => expect(terminal?.serialNumber).toBe(serialNumber)),
  );

  it.each<[string, Partial<Extract<TerminalCommand, { type: 'CreateTerminal' }>>, string]>([
    ['an empty serial number', { serialNumber: '' }, 'serial_number'],
    ['a serial number with a space', { serialNumber: 'PAX A920' }, 'serial_number'],
    ['a serial number with spaces around it', { serialNumber: ' PAX-1 ' }, 'serial_number'],
    ['a serial number ending in a dash', { serialNumber: 'PAX-' }, 'serial_number'],
    ['a 65-character serial number', { serialNumber: 'X'.repeat(65) }, 'serial_number'],
    ['a serial number with a slash', { serialNumber: 'A/B' }, 'serial_number'],
    ['a blank model', { model: '   ' }, 'model'],
    ['a 101-character model', { model: 'm'.repeat(101) }, 'model'],
    ['a model with a line break', { model: 'PAX\nA920' }, 'model'],
    ['a model with a bidi override', { model: 'PAX\u202eA920' }, 'model'],
  ])('refuses %s (400 naming %s)', (_, fields, field) =>
    given([])
      .when(create(fields))
      .thenThrows(TerminalInvalid, {
        code: 'validation_error',
        errors: [{ field, message: expect.any(String) }],
      }),
  );

  it('names every broken field at once', () =>
    given([])
      .when(create({ serialNumber: 'no spaces please', model: '' }))
      .thenThrows(TerminalInvalid, {
        errors: [
          { field: 'serial_number', message: expect.stringContaining('letters, digits') },
          { field: 'model', message: 'must not be blank' },
        ],
      }));
});

describe('keys: only the prefix and the hash are recorded', () => {
  it('provision records the key and makes the terminal PROVISIONED', () =>
    given([created()])
      .when(COMMAND_FOR.provision)
      .thenState((terminal, events) => {
        expect(events).toEqual([
          { type: 'TerminalProvisioned', data: { ...ids, ...NEW_KEY, provisionedAt: at(T1) } },
        ]);
        expect(terminal?.apiKey).toEqual({
          prefix: NEW_KEY.keyPrefix,
          hash: NEW_KEY.keyHash,
          issuedAt: at(T1),
        });
      }));

  it('rotation replaces the key, its issue time with it, and keeps the state', () =>
    given(HISTORY_TO.SUSPENDED)
      .when(COMMAND_FOR.rotate_api_key)
      .thenState((terminal, events) => {
        expect(events).toEqual([
          { type: 'TerminalApiKeyRotated', data: { ...ids, ...NEW_KEY, rotatedAt: at(T1) } },
        ]);
        expect(terminal).toMatchObject({
          state: 'SUSPENDED',
          suspendedFrom: 'ACTIVE',
          apiKey: { prefix: NEW_KEY.keyPrefix, hash: NEW_KEY.keyHash, issuedAt: at(T1) },
        });
      }));

  it('decommissioning drops the key', () =>
    given(HISTORY_TO.ACTIVE)
      .when(COMMAND_FOR.decommission)
      .thenState((terminal) => expect(terminal).toMatchObject({ state: 'DECOMMISSIONED', apiKey: null })));
});

describe('suspend and reactivate', () => {
  it.each<[TerminalState, TerminalEvent[]]>([
    ['PROVISIONED', HISTORY_TO.PROVISIONED],
    ['ACTIVE', HISTORY_TO.ACTIVE],
    ['MAINTENANCE', HISTORY_TO.MAINTENANCE],
  ])('a terminal suspended from %s is reactivated to it', (from, history) =>
    given([...history, suspendedFrom(from)])
      .when(COMMAND_FOR.reactivate)
      .thenState((terminal, events) => {
        expect(events).toEqual([
          { type: 'TerminalReactivated', data: { ...ids, to: from, reactivatedAt: at(T1) } },
        ]);
        expect(terminal).toMatchObject({ state: from, suspendedFrom: null });
      }),
  );

  it('suspension remembers the state it left', () =>
    given(HISTORY_TO.MAINTENANCE)
      .when(COMMAND_FOR.suspend)
      .thenState((terminal, events) => {
        expect(events).toEqual([
          { type: 'TerminalSuspended', data: { ...ids, from: 'MAINTENANCE', suspendedAt: at(T1) } },
        ]);
        expect(terminal).toMatchObject({ state: 'SUSPENDED', suspendedFrom: 'MAINTENANCE' });
      }));
});

describe('heartbeat', () => {
  const ACTIVE_AT_T0 = HISTORY_TO.ACTIVE;

  it('the first one of a PROVISIONED terminal is recorded and activates it', () =>
    given(HISTORY_TO.PROVISIONED)
      .when(heartbeat(T1, '3.2.1'))
      .thenState((terminal, events) => {
        expect(events).toEqual([heartbeatAt(T1, '3.2.1'), activatedAt(T1)]);
        expect(terminal).toMatchObject({
          state: 'ACTIVE',
          lastHeartbeatAt: at(T1),
          firmwareVersion: '3.2.1',
        });
      }));

  it(`within ${HEARTBEAT_RECORD_INTERVAL_SECONDS} s of the last recorded one, records nothing`, () =>
    given(ACTIVE_AT_T0)
      .when(heartbeat(seconds(HEARTBEAT_RECORD_INTERVAL_SECONDS - 1)))
      .then([]));

  it(`${HEARTBEAT_RECORD_INTERVAL_SECONDS} s after the last recorded one, records it`, () =>
    given(ACTIVE_AT_T0)
      .when(heartbeat(seconds(HEARTBEAT_RECORD_INTERVAL_SECONDS)))
      .then([heartbeatAt(seconds(HEARTBEAT_RECORD_INTERVAL_SECONDS))]));

  it('a new firmware version is recorded at once, and kept when later heartbeats report none', () => {
    given(ACTIVE_AT_T0)
      .when(heartbeat(seconds(10), '3.3.0'))
      .thenState((terminal, events) => {
        expect(events).toEqual([heartbeatAt(seconds(10), '3.3.0')]);
        expect(terminal).toMatchObject({ firmwareVersion: '3.3.0', lastHeartbeatAt: at(seconds(10)) });
      });
    given([...ACTIVE_AT_T0, heartbeatAt(seconds(10), '3.3.0')])
      .when(heartbeat(T1))
      .thenState((terminal) =>
        expect(terminal).toMatchObject({ firmwareVersion: '3.3.0', lastHeartbeatAt: at(T1) }),
      );
  });

  it('the same firmware version again within the interval records nothing (trimmed)', () =>
    given([...ACTIVE_AT_T0, heartbeatAt(seconds(10), '3.3.0')])
      .when(heartbeat(seconds(20), ' 3.3.0 '))
      .then([]));

  it.each([
    ['blank', '  '],
    ['too long', '1'.repeat(65)],
    ['with a control character', '3.3\u0000'],
  ])('a %s firmware version is 400 naming firmware_version', (_, firmwareVersion) =>
    given(ACTIVE_AT_T0)
      .when(heartbeat(T1, firmwareVersion))
      .thenThrows(TerminalInvalid, { errors: [{ field: 'firmware_version', message: expect.any(String) }] }),
  );

  it('a suspended terminal is heard but stays SUSPENDED', () =>
    given(HISTORY_TO.SUSPENDED)
      .when(heartbeat(T1))
      .thenState((terminal, events) => {
        expect(events.map((e) => e.type)).toEqual(['TerminalHeartbeatRecorded']);
        expect(terminal).toMatchObject({ state: 'SUSPENDED', lastHeartbeatAt: at(T1) });
      }));

  it('a terminal suspended before its first heartbeat goes back to PROVISIONED, then a heartbeat activates it', () => {
    const history = [...HISTORY_TO.PROVISIONED, suspendedFrom('PROVISIONED'), heartbeatAt(seconds(5))];
    given(history)
      .when(COMMAND_FOR.reactivate)
      .thenState((terminal) => expect(terminal?.state).toBe('PROVISIONED'));
    // Within the interval of the heartbeat heard while suspended: the activation is recorded anyway.
    given([
      ...history,
      { type: 'TerminalReactivated', data: { ...ids, to: 'PROVISIONED', reactivatedAt: at(seconds(6)) } },
    ])
      .when(heartbeat(seconds(7)))
      .thenState((terminal, events) => {
        expect(events.map((e) => e.type)).toEqual(['TerminalHeartbeatRecorded', 'TerminalActivated']);
        expect(terminal?.state).toBe('ACTIVE');
      });
  });
});

describe('a terminal that does not exist', () => {
  it.each(Object.entries(COMMAND_FOR))('%s is 404 terminal_not_found', (_, command) =>
    given([]).when(command).thenThrows(TerminalNotFound, { code: 'terminal_not_found', terminalId: ID }),
  );
});

describe('evolve', () => {
  it('ignores events before TerminalCreated (events are facts, evolve never throws)', () => {
    expect(evolve(null, provisioned())).toBeNull();
    expect(evolve(null, decommissioned())).toBeNull();
  });

  it('counts every event in version', () => expect((fold(HISTORY_TO.SUSPENDED) as Terminal).version).toBe(5));
});
