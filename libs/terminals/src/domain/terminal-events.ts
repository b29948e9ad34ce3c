import type { TerminalState } from './terminal-states';

/**
 * Stored terminal events (stream `terminal-{id}`). Stored types are never renamed or reshaped;
 * add new ones instead. Every event names its terminal, merchant and partner and carries its time
 * as an ISO-8601 string. A key is recorded by its public prefix and the SHA-256 hash of the whole
 * key, never the key itself.
 */

interface Ids {
  terminalId: string;
  merchantId: string;
  partnerId: string;
}

/** The key's public prefix (8 characters after `ctk_`) and the hex SHA-256 of the whole key. */
export interface TerminalKeyRecord {
  keyPrefix: string;
  keyHash: string;
}

export interface TerminalCreated {
  type: 'TerminalCreated';
  data: Ids & { serialNumber: string; model: string; createdAt: string };
}

export interface TerminalProvisioned {
  type: 'TerminalProvisioned';
  data: Ids & TerminalKeyRecord & { provisionedAt: string };
}

/** A new key replaces the terminal's key; the old one stops working. */
export interface TerminalApiKeyRotated {
  type: 'TerminalApiKeyRotated';
  data: Ids & TerminalKeyRecord & { rotatedAt: string };
}

/**
 * The terminal reported in (`last_heartbeat_at`); `firmwareVersion` is what it reported, null
 * when it reported none. Recorded at most every few minutes (see decide.ts).
 */
export interface TerminalHeartbeatRecorded {
  type: 'TerminalHeartbeatRecorded';
  data: Ids & { firmwareVersion: string | null; receivedAt: string };
}

/** First sign of life of a provisioned terminal: PROVISIONED → ACTIVE. */
export interface TerminalActivated {
  type: 'TerminalActivated';
  data: Ids & { activatedAt: string };
}

export interface TerminalSuspended {
  type: 'TerminalSuspended';
  data: Ids & { from: TerminalState; suspendedAt: string };
}

export interface TerminalReactivated {
  type: 'TerminalReactivated';
  data: Ids & { to: TerminalState; reactivatedAt: string };
}

export interface TerminalMaintenanceStarted {
  type: 'TerminalMaintenanceStarted';
  data: Ids & { startedAt: string };
}

export interface TerminalMaintenanceEnded {
  type: 'TerminalMaintenanceEnded';
  data: Ids & { endedAt: string };
}

/** Terminal: the key stops working and no action is allowed any more. */
export interface TerminalDecommissioned {
  type: 'TerminalDecommissioned';
  data: Ids & { decommissionedAt: string };
}

/** Everything on `terminal-{id}`. */
export type TerminalEvent =
  | TerminalCreated
  | TerminalProvisioned
  | TerminalApiKeyRotated
  | TerminalHeartbeatRecorded
  | TerminalActivated
  | TerminalSuspended
  | TerminalReactivated
  | TerminalMaintenanceStarted
  | TerminalMaintenanceEnded
  | TerminalDecommissioned;

export type TerminalEventType = TerminalEvent['type'];

const EVENT_TYPES: Readonly<Record<TerminalEventType, true>> = {
  TerminalCreated: true,
  TerminalProvisioned: true,
  TerminalApiKeyRotated: true,
  TerminalHeartbeatRecorded: true,
  TerminalActivated: true,
  TerminalSuspended: true,
  TerminalReactivated: true,
  TerminalMaintenanceStarted: true,
  TerminalMaintenanceEnded: true,
  TerminalDecommissioned: true,
};

/** Every terminal event type (the record above makes the compiler check the list is complete). */
export const TERMINAL_EVENT_TYPES = Object.keys(EVENT_TYPES) as TerminalEventType[];
