import { z } from 'zod';
import type { RecordedEvent } from '../../../event-store/src';
import { Timestamp } from '../../../platform/src/openapi/wire-schemas';
import { evolve, type Partner } from '../domain/partner';
import type { PartnerEvent } from '../domain/partner-events';
import { CERTIFICATION_STATUSES, PARTNER_STATES } from '../domain/partner-transitions';

export const PartnerTransitionResource = z
  .strictObject({
    version: z.int(),
    event_type: z.string(),
    occurred_at: Timestamp,
    from_state: z.enum(PARTNER_STATES).nullable(),
    to_state: z.enum(PARTNER_STATES),
    from_certification_status: z.enum(CERTIFICATION_STATUSES).nullable(),
    to_certification_status: z.enum(CERTIFICATION_STATUSES),
    actor: z.string().nullable(),
    request_id: z.string().nullable(),
  })
  .meta({ id: 'PartnerTransition' });

export type PartnerTransition = z.infer<typeof PartnerTransitionResource>;

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
