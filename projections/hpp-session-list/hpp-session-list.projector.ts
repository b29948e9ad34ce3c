import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import {
  evolve,
  type HppSession,
  HPP_SESSION_EVENT_TYPES,
  HPP_SESSION_STREAM_PREFIX,
  type HppSessionEvent,
} from '../../libs/hosted-pages/src';

/**
 * `hpp_session_list`: one row per hosted-payment-page session, built by folding the aggregate's
 * own `evolve` over a JSON snapshot, so the row can never disagree with the session read. The
 * recorded `state` (not the effective one: a PENDING row past `expires_at` stays PENDING until
 * HppSessionExpired is recorded) and `expires_at` are columns, for the expiry sweeper's query.
 */
export class HppSessionListProjector {
  readonly name = 'hpp-session-list';
  readonly eventTypes = HPP_SESSION_EVENT_TYPES;
  readonly tables = ['hpp_session_list'];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const id = recorded.stream.slice(HPP_SESSION_STREAM_PREFIX.length);
    const rows = (await tx.query('select snapshot, created_position from hpp_session_list where id = $1', [
      id,
    ])) as { snapshot: HppSession; created_position: string }[];
    const session = evolve(rows[0]?.snapshot ?? null, {
      type: recorded.type,
      data: recorded.data,
    } as HppSessionEvent);
    if (!session) return;
    await tx.query(
      `insert into hpp_session_list (id, partner_id, merchant_id, state, expires_at, created_at,
         created_position, version, snapshot)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       on conflict (id) do update set
         state = excluded.state, version = excluded.version, snapshot = excluded.snapshot`,
      [
        session.id,
        session.partnerId,
        session.merchantId,
        session.state,
        session.expiresAt,
        session.createdAt,
        rows[0]?.created_position ?? recorded.globalPosition.toString(),
        session.version,
        JSON.stringify(session),
      ],
    );
  }
}
