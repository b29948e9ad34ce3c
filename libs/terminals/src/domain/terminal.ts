import type { TerminalEvent } from './terminal-events';
import type { TerminalState } from './terminal-states';

/** The terminal's key as stored: its public prefix and the hash of the whole key, never the key. */
export interface TerminalKey {
  prefix: string;
  hash: string;
  /** When this key was issued (provisioning or the last rotation): `rotated_at`. */
  issuedAt: string;
}

/** The terminal as its events make it: plain JSON (the read model keeps it as a snapshot). */
export interface Terminal {
  id: string;
  merchantId: string;
  partnerId: string;
  serialNumber: string;
  model: string;
  /** As the terminal last reported it; null until it reports one. */
  firmwareVersion: string | null;
  state: TerminalState;
  /** The state a SUSPENDED terminal left (where `reactivate` returns); null otherwise. */
  suspendedFrom: TerminalState | null;
  /** Null before provisioning and after decommissioning. */
  apiKey: TerminalKey | null;
  /** The last recorded heartbeat; null until the terminal first reports in. */
  lastHeartbeatAt: string | null;
  createdAt: string;
  /** Number of events applied. */
  version: number;
}

/** Before TerminalCreated the terminal does not exist. */
export type TerminalStateOrNone = Terminal | null;

export const initialState = (): TerminalStateOrNone => null;

/** Folds one event. Events are facts: evolve never throws and never refuses. */
export function evolve(terminal: TerminalStateOrNone, event: TerminalEvent): TerminalStateOrNone {
  if (event.type === 'TerminalCreated') {
    const d = event.data;
    return {
      id: d.terminalId,
      merchantId: d.merchantId,
      partnerId: d.partnerId,
      serialNumber: d.serialNumber,
      model: d.model,
      firmwareVersion: null,
      state: 'UNASSIGNED',
      suspendedFrom: null,
      apiKey: null,
      lastHeartbeatAt: null,
      createdAt: d.createdAt,
      version: 1,
    };
  }
  if (!terminal) return terminal;
  const t: Terminal = { ...terminal, version: terminal.version + 1 };
  switch (event.type) {
    case 'TerminalProvisioned': {
      const { keyPrefix, keyHash, provisionedAt } = event.data;
      return {
        ...t,
        state: 'PROVISIONED',
        apiKey: { prefix: keyPrefix, hash: keyHash, issuedAt: provisionedAt },
      };
    }
    case 'TerminalApiKeyRotated': {
      const { keyPrefix, keyHash, rotatedAt } = event.data;
      return { ...t, apiKey: { prefix: keyPrefix, hash: keyHash, issuedAt: rotatedAt } };
    }
    case 'TerminalHeartbeatRecorded':
      return {
        ...t,
        lastHeartbeatAt: event.data.receivedAt,
        firmwareVersion: event.data.firmwareVersion ?? t.firmwareVersion,
      };
    case 'TerminalActivated':
      return { ...t, state: 'ACTIVE' };
    case 'TerminalSuspended':
      return { ...t, state: 'SUSPENDED', suspendedFrom: event.data.from };
    case 'TerminalReactivated':
      return { ...t, state: event.data.to, suspendedFrom: null };
    case 'TerminalMaintenanceStarted':
      return { ...t, state: 'MAINTENANCE' };
    case 'TerminalMaintenanceEnded':
      return { ...t, state: 'ACTIVE' };
    case 'TerminalDecommissioned':
      return { ...t, state: 'DECOMMISSIONED', suspendedFrom: null, apiKey: null };
  }
}

export const terminalEvolver = { initialState, evolve };
