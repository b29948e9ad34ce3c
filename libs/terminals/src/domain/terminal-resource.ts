import type { Terminal } from './terminal';
import { z } from 'zod';
import { Timestamp, Uuid } from '../../../platform/src/openapi/wire-schemas';
import { TERMINAL_STATES } from './terminal-states';

/** The spec's Terminal resource, field for field (snake_case, as on the wire). */
export const TerminalResourceSchema = z
  .strictObject({
    id: Uuid,
    merchant_id: Uuid,
    serial_number: z.string(),
    model: z.string(),
    firmware_version: z
      .string()
      .nullable()
      .meta({ description: 'As the terminal last reported it in a heartbeat; null until it does.' }),
    state: z.enum(TERMINAL_STATES),
    last_heartbeat_at: Timestamp.nullable().meta({
      description: 'The last recorded heartbeat (recorded at most every five minutes); null until the first.',
    }),
    created_at: Timestamp,
  })
  .meta({ id: 'Terminal' });
export type TerminalResource = z.infer<typeof TerminalResourceSchema>;

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
export const TerminalKeyResourceSchema = z
  .strictObject({
    terminal: TerminalResourceSchema,
    api_key: z.string().meta({ description: '`ctk_<prefix>_<secret>`: shown once, stored only as a hash.' }),
    rotated_at: Timestamp.meta({ description: 'When this key was issued.' }),
  })
  .meta({ id: 'TerminalKey' });
export type TerminalKeyResource = z.infer<typeof TerminalKeyResourceSchema>;

export function toTerminalKeyResource(t: Terminal, apiKey: string): TerminalKeyResource {
  if (!t.apiKey) throw new Error(`terminal ${t.id} holds no key to answer with`);
  return { terminal: toTerminalResource(t), api_key: apiKey, rotated_at: t.apiKey.issuedAt };
}
