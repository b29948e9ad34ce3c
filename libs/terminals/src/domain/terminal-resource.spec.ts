import { decide, type TerminalCommand } from './decide';
import { stateAfter } from '../../../../test/support/decider-spec';
import { evolve, initialState, type Terminal, type TerminalStateOrNone } from './terminal';
import { TERMINAL_EVENT_TYPES, type TerminalEvent } from './terminal-events';
import { toTerminalKeyResource, toTerminalResource } from './terminal-resource';
import { TERMINALS_WEBHOOK_EVENTS } from './terminal-webhooks';

/** The spec's Terminal resource, in its order. */
const SPEC_FIELDS = [
  'id',
  'merchant_id',
  'serial_number',
  'model',
  'firmware_version',
  'state',
  'last_heartbeat_at',
  'created_at',
];

const ID = '5d0c1a9e-2b7f-4c61-8f3a-0e9d8c7b6a51';
const MERCHANT = '7b1d2c3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const PARTNER = '3f0c6c51-5b7b-4c3e-9d55-1f1f3e4b2a10';
const T0 = new Date('2026-11-01T10:00:00.000Z');
const T1 = new Date('2026-11-01T10:05:00.000Z');

const run = (commands: TerminalCommand[]): Terminal =>
  stateAfter<TerminalCommand, TerminalStateOrNone, TerminalEvent>(
    { decide, evolve, initialState },
    commands,
  ) as Terminal;

const active = run([
  {
    type: 'CreateTerminal',
    terminalId: ID,
    merchantId: MERCHANT,
    partnerId: PARTNER,
    serialNumber: 'SN-1',
    model: 'PAX A920',
    at: T0,
  },
  { type: 'ProvisionTerminal', terminalId: ID, keyPrefix: 'AbCd1234', keyHash: 'f'.repeat(64), at: T0 },
  { type: 'RecordTerminalHeartbeat', terminalId: ID, firmwareVersion: '3.2.1', at: T1 },
]);

describe('toTerminalResource', () => {
  it('has exactly the spec fields and maps every value', () => {
    const resource = toTerminalResource(active);
    expect(Object.keys(resource)).toEqual(SPEC_FIELDS);
    expect(resource).toEqual({
      id: ID,
      merchant_id: MERCHANT,
      serial_number: 'SN-1',
      model: 'PAX A920',
      firmware_version: '3.2.1',
      state: 'ACTIVE',
      last_heartbeat_at: T1.toISOString(),
      created_at: T0.toISOString(),
    });
  });

  it('never shows the key, its prefix or its hash', () =>
    expect(JSON.stringify(toTerminalResource(active))).not.toMatch(/AbCd1234|ffff/));

  it('unset values are null', () =>
    expect(
      toTerminalResource(
        run([
          {
            type: 'CreateTerminal',
            terminalId: ID,
            merchantId: MERCHANT,
            partnerId: PARTNER,
            serialNumber: 'SN-1',
            model: 'M',
            at: T0,
          },
        ]),
      ),
    ).toMatchObject({ state: 'UNASSIGNED', firmware_version: null, last_heartbeat_at: null }));
});

describe('toTerminalKeyResource', () => {
  it('wraps the terminal with the key and when it was issued', () =>
    expect(toTerminalKeyResource(active, 'ctk_AbCd1234_secret')).toEqual({
      terminal: toTerminalResource(active),
      api_key: 'ctk_AbCd1234_secret',
      rotated_at: T0.toISOString(),
    }));
});

describe('TERMINALS_WEBHOOK_EVENTS', () => {
  it('lists every terminal event but the heartbeat, once, as terminal.* with the Terminal as data.object', () => {
    expect(TERMINALS_WEBHOOK_EVENTS.map((e) => e.eventType).sort()).toEqual(
      TERMINAL_EVENT_TYPES.filter((type) => type !== 'TerminalHeartbeatRecorded').sort(),
    );
    const webhookTypes = TERMINALS_WEBHOOK_EVENTS.map((e) => e.webhookType);
    expect(new Set(webhookTypes).size).toBe(webhookTypes.length);
    for (const entry of TERMINALS_WEBHOOK_EVENTS) {
      expect(entry.webhookType).toMatch(/^terminal\.[a-z_]+$/);
      expect(entry.object).toBe('terminal');
      expect(entry.description).toMatch(/\S/);
    }
  });
});
