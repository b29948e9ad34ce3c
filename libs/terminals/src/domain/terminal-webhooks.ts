import type { TerminalEventType } from './terminal-events';

/** One partner-visible terminal event, as the webhook catalog will list it. */
export interface TerminalWebhookEvent {
  eventType: TerminalEventType;
  webhookType: string;
  description: string;
  /** The resource whose API form is `data.object`: the Terminal (`toTerminalResource`). */
  object: 'terminal';
}

/**
 * The terminal events a partner sees as webhooks, for the webhook catalog to take in. Every
 * lifecycle move is visible; `TerminalHeartbeatRecorded` is not (it is a device reporting in,
 * not a change a partner acts on; its effect shows in `last_heartbeat_at` and `firmware_version`).
 * `data.object` is `toTerminalResource(terminal)` of the terminal after the event; it never holds
 * the key.
 */
export const TERMINALS_WEBHOOK_EVENTS: readonly TerminalWebhookEvent[] = [
  {
    eventType: 'TerminalCreated',
    webhookType: 'terminal.created',
    description: 'A terminal was registered to a merchant (UNASSIGNED).',
    object: 'terminal',
  },
  {
    eventType: 'TerminalProvisioned',
    webhookType: 'terminal.provisioned',
    description: 'A terminal was provisioned and its API key issued (PROVISIONED).',
    object: 'terminal',
  },
  {
    eventType: 'TerminalApiKeyRotated',
    webhookType: 'terminal.api_key_rotated',
    description: "A terminal's API key was replaced; the previous key no longer works.",
    object: 'terminal',
  },
  {
    eventType: 'TerminalActivated',
    webhookType: 'terminal.activated',
    description: 'A provisioned terminal reported in for the first time (ACTIVE).',
    object: 'terminal',
  },
  {
    eventType: 'TerminalSuspended',
    webhookType: 'terminal.suspended',
    description: 'A terminal was suspended (SUSPENDED).',
    object: 'terminal',
  },
  {
    eventType: 'TerminalReactivated',
    webhookType: 'terminal.reactivated',
    description: 'A suspended terminal was reactivated to the state it was suspended from.',
    object: 'terminal',
  },
  {
    eventType: 'TerminalMaintenanceStarted',
    webhookType: 'terminal.maintenance_started',
    description: 'A terminal went into maintenance (MAINTENANCE).',
    object: 'terminal',
  },
  {
    eventType: 'TerminalMaintenanceEnded',
    webhookType: 'terminal.maintenance_ended',
    description: 'A terminal came back from maintenance (ACTIVE).',
    object: 'terminal',
  },
  {
    eventType: 'TerminalDecommissioned',
    webhookType: 'terminal.decommissioned',
    description: 'A terminal was decommissioned; its API key no longer works (DECOMMISSIONED).',
    object: 'terminal',
  },
];
