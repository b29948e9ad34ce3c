import type { Terminal } from './terminal';
import type { TerminalState } from './terminal-states';

/** The spec's Terminal resource, field for field (snake_case, as on the wire). */
export interface TerminalResource {
  id: string;
  merchant_id: string;
  serial_number: string;
  model: string;
  /** As the terminal last reported it in a heartbeat; null until it does. */
  firmware_version: string | null;
  state: TerminalState;
  /** The last recorded heartbeat (recorded at most every five minutes); null until the first. */
  last_heartbeat_at: string | null;
  created_at: string;
}

/** The resource, also the list form (the spec shows no separate one). */
export function toTerminalResource(t: Terminal): TerminalResource {
  return {
    id: t.id,
    merchant_id: t.merchantId,
    serial_number: t.serialNumber,
    model: t.model,
    firmware_version: t.firmwareVersion,
    state: t.state,
    last_heartbeat_at: t.lastHeartbeatAt,
    created_at: t.createdAt,
  };
}

/** The answer of provisioning and key rotation: the only place the key is ever shown. */
export interface TerminalKeyResource {
  terminal: TerminalResource;
  /** `ctk_<prefix>_<secret>`: shown once, stored only as a hash. */
  api_key: string;
  /** When this key was issued. */
  rotated_at: string;
}

export function toTerminalKeyResource(t: Terminal, apiKey: string): TerminalKeyResource {
  if (!t.apiKey) throw new Error(`terminal ${t.id} holds no key to answer with`);
  return { terminal: toTerminalResource(t), api_key: apiKey, rotated_at: t.apiKey.issuedAt };
}
