import { SnapshotListProjector } from '../../libs/projections/src';
import {
  evolve,
  type HppSession,
  HPP_SESSION_EVENT_TYPES,
  HPP_SESSION_STREAM_PREFIX,
  type HppSessionEvent,
} from '../../libs/hosted-pages/src';

/**
 * `hpp_session_list`: one row per hosted-payment-page session. The recorded `state` (not the
 * effective one: a PENDING row past `expires_at` stays PENDING until HppSessionExpired is
 * recorded) and `expires_at` are columns, for the expiry sweeper's query.
 */
export class HppSessionListProjector extends SnapshotListProjector<HppSession> {
  constructor() {
    super({
      name: 'hpp-session-list',
      table: 'hpp_session_list',
      eventTypes: HPP_SESSION_EVENT_TYPES,
      streamPrefix: HPP_SESSION_STREAM_PREFIX,
      evolve: (state, event) => evolve(state, event as HppSessionEvent),
      columns: (session) => ({
        partner_id: session.partnerId,
        merchant_id: session.merchantId,
        state: session.state,
        expires_at: session.expiresAt,
        created_at: session.createdAt,
        version: session.version,
      }),
    });
  }
}
