import type { RecordedEvent } from '../../../event-store/src';
import { evolve, type Partner } from '../domain/partner';
import type { PartnerEvent } from '../domain/partner-events';

export interface PartnerTransition {
  version: number;
  event_type: string;
  occurred_at: string;
  from_state: string | null;
  to_state: string;
  from_certification_status: string | null;
  to_certification_status: string;
  actor: string | null;
  request_id: string | null;
}

/**
 * `GET /iam/partners/{id}/transitions`: every event of `partner-{id}` that moved the partner's
 * `state` or `certification_status` (creation included), oldest first, with who caused it.
 */
export function partnerTransitions(history: readonly RecordedEvent[]): PartnerTransition[] {
  const out: PartnerTransition[] = [];
  let partner: Partner | null = null;
  for (const recorded of history) {
    const before = partner;
    partner = evolve(partner, { type: recorded.type, data: recorded.data } as PartnerEvent);
    if (!partner) continue;
    if (
      before &&
      before.state === partner.state &&
      before.certificationStatus === partner.certificationStatus
    ) {
      continue;
    }
    out.push({
      version: partner.version,
      event_type: recorded.type,
      occurred_at: recorded.recordedAt.toISOString(),
      from_state: before?.state ?? null,
      to_state: partner.state,
      from_certification_status: before?.certificationStatus ?? null,
      to_certification_status: partner.certificationStatus,
      actor: recorded.metadata.actor ?? null,
      request_id: recorded.metadata.request_id ?? null,
    });
  }
  return out;
}
