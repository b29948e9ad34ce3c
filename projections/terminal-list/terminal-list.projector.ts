import { SnapshotListProjector } from '../../libs/projections/src';
import {
  evolve,
  type Terminal,
  TERMINAL_EVENT_TYPES,
  type TerminalEvent,
  TERMINAL_STREAM_PREFIX,
} from '../../libs/terminals/src';

/**
 * `terminal_list`: one row per terminal, for `GET /terminals` and for the auth guard's key lookup
 * (`api_key_prefix`, `api_key_hash`: null before provisioning and after decommissioning, so a
 * retired key finds no row). A decommissioned terminal keeps its row.
 */
export class TerminalListProjector extends SnapshotListProjector<Terminal> {
  constructor() {
    super({
      name: 'terminal-list',
      table: 'terminal_list',
      eventTypes: TERMINAL_EVENT_TYPES,
      streamPrefix: TERMINAL_STREAM_PREFIX,
      evolve: (state, event) => evolve(state, event as TerminalEvent),
      columns: (terminal) => ({
        partner_id: terminal.partnerId,
        merchant_id: terminal.merchantId,
        serial_number: terminal.serialNumber,
        model: terminal.model,
        state: terminal.state,
        api_key_prefix: terminal.apiKey?.prefix ?? null,
        api_key_hash: terminal.apiKey?.hash ?? null,
        last_heartbeat_at: terminal.lastHeartbeatAt,
        created_at: terminal.createdAt,
        version: terminal.version,
      }),
    });
  }
}
