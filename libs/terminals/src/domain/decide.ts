import { InvalidStateTransition } from '../../../platform/src/problem';
import type { Terminal, TerminalStateOrNone } from './terminal';
import { TerminalNotFound } from './terminal-errors';
import type { TerminalEvent, TerminalKeyRecord } from './terminal-events';
import { assertTerminalFields } from './terminal-rules';
import { nextTerminalState, type TerminalAction } from './terminal-states';

/**
 * A heartbeat is recorded when the last recorded one is at least this old (or when it changes
 * something: the first one, a new firmware version, an activation). Terminals report every few
 * seconds; recording each would grow a terminal's stream by tens of thousands of events a day for
 * no reader's benefit, while `last_heartbeat_at` within five minutes is what "is it online?"
 * needs (docs/terminals.md).
 */
export const HEARTBEAT_RECORD_INTERVAL_SECONDS = 300;

interface Base {
  terminalId: string;
  at: Date;
}

/** The terminal's commands. Keys arrive generated (prefix and hash only): decide stays pure. */
export type TerminalCommand =
  | (Base & {
      type: 'CreateTerminal';
      merchantId: string;
      partnerId: string;
      serialNumber: string;
      model: string;
    })
  | (Base & TerminalKeyRecord & { type: 'ProvisionTerminal' })
  | (Base & TerminalKeyRecord & { type: 'RotateTerminalApiKey' })
  | (Base & { type: 'RecordTerminalHeartbeat'; firmwareVersion: string | null })
  | (Base & { type: 'SuspendTerminal' })
  | (Base & { type: 'ReactivateTerminal' })
  | (Base & { type: 'StartTerminalMaintenance' })
  | (Base & { type: 'EndTerminalMaintenance' })
  | (Base & { type: 'DecommissionTerminal' });

export type TerminalCommandType = TerminalCommand['type'];

/** The state-machine action of every command but create. */
export const TERMINAL_COMMAND_ACTIONS: Readonly<
  Record<Exclude<TerminalCommandType, 'CreateTerminal'>, TerminalAction>
> = {
  ProvisionTerminal: 'provision',
  RotateTerminalApiKey: 'rotate_api_key',
  RecordTerminalHeartbeat: 'heartbeat',
  SuspendTerminal: 'suspend',
  ReactivateTerminal: 'reactivate',
  StartTerminalMaintenance: 'start_maintenance',
  EndTerminalMaintenance: 'end_maintenance',
  DecommissionTerminal: 'decommission',
};

/** The terminal's decisions. Pure: time, ids and key hashes arrive with the command. */
export function decide(command: TerminalCommand, terminal: TerminalStateOrNone): TerminalEvent[] {
  const at = command.at.toISOString();

  if (command.type === 'CreateTerminal') {
    if (terminal) throw new InvalidStateTransition('terminal', terminal.state, 'create');
    assertTerminalFields({ serialNumber: command.serialNumber, model: command.model });
    const { terminalId, merchantId, partnerId, serialNumber } = command;
    return [
      {
        type: 'TerminalCreated',
        data: { terminalId, merchantId, partnerId, serialNumber, model: command.model.trim(), createdAt: at },
      },
    ];
  }

  if (!terminal) throw new TerminalNotFound(command.terminalId);
  const next = nextTerminalState(TERMINAL_COMMAND_ACTIONS[command.type], terminal);
  const ids = { terminalId: terminal.id, merchantId: terminal.merchantId, partnerId: terminal.partnerId };

  switch (command.type) {
    case 'ProvisionTerminal':
      return [{ type: 'TerminalProvisioned', data: { ...ids, ...keyOf(command), provisionedAt: at } }];
    case 'RotateTerminalApiKey':
      return [{ type: 'TerminalApiKeyRotated', data: { ...ids, ...keyOf(command), rotatedAt: at } }];
    case 'RecordTerminalHeartbeat':
      return heartbeat(command, terminal, next, ids);
    case 'SuspendTerminal':
      return [{ type: 'TerminalSuspended', data: { ...ids, from: terminal.state, suspendedAt: at } }];
    case 'ReactivateTerminal':
      return [{ type: 'TerminalReactivated', data: { ...ids, to: next, reactivatedAt: at } }];
    case 'StartTerminalMaintenance':
      return [{ type: 'TerminalMaintenanceStarted', data: { ...ids, startedAt: at } }];
    case 'EndTerminalMaintenance':
      return [{ type: 'TerminalMaintenanceEnded', data: { ...ids, endedAt: at } }];
    case 'DecommissionTerminal':
      return [{ type: 'TerminalDecommissioned', data: { ...ids, decommissionedAt: at } }];
  }
}

const keyOf = (command: TerminalKeyRecord): TerminalKeyRecord => ({
  keyPrefix: command.keyPrefix,
  keyHash: command.keyHash,
});

/**
 * Recorded when it changes something (the first heartbeat, a new firmware version, PROVISIONED →
 * ACTIVE) or when the last recorded one is {@link HEARTBEAT_RECORD_INTERVAL_SECONDS} old;
 * otherwise nothing is appended and the terminal answers as it is.
 */
function heartbeat(
  command: Extract<TerminalCommand, { type: 'RecordTerminalHeartbeat' }>,
  terminal: Terminal,
  next: Terminal['state'],
  ids: { terminalId: string; merchantId: string; partnerId: string },
): TerminalEvent[] {
  const firmwareVersion = command.firmwareVersion?.trim() ?? null;
  if (command.firmwareVersion != null) assertTerminalFields({ firmwareVersion: command.firmwareVersion });
  const activates = next !== terminal.state;
  const newFirmware = firmwareVersion !== null && firmwareVersion !== terminal.firmwareVersion;
  const due =
    terminal.lastHeartbeatAt === null ||
    command.at.getTime() - Date.parse(terminal.lastHeartbeatAt) >= HEARTBEAT_RECORD_INTERVAL_SECONDS * 1000;
  if (!activates && !newFirmware && !due) return [];
  const at = command.at.toISOString();
  const recorded: TerminalEvent = {
    type: 'TerminalHeartbeatRecorded',
    data: { ...ids, firmwareVersion, receivedAt: at },
  };
  if (!activates) return [recorded];
  return [recorded, { type: 'TerminalActivated', data: { ...ids, activatedAt: at } }];
}
