import type { EntityManager } from 'typeorm';
import type { RecordedEvent } from '../../libs/event-store/src';
import { PARTNER_EVENT_TYPES, type PartnerEvent } from '../../libs/partners/src';
import type { Projector } from '../../libs/projections/src';
import { PartnerListRow } from './partner-list.entity';

export class PartnerListProjector implements Projector {
  readonly name = 'partner-list';
  /** Every partner event: each one moves the row's revision (the list's `version`). */
  readonly eventTypes = PARTNER_EVENT_TYPES;
  readonly tables = ['partner_list'];

  async handle(tx: EntityManager, recorded: RecordedEvent): Promise<void> {
    const event = recorded as unknown as RecordedEvent<PartnerEvent['data']> & PartnerEvent;
    const revision = recorded.revision.toString();
    switch (event.type) {
      case 'PartnerCreated':
        await tx.insert(PartnerListRow, {
          id: event.data.partnerId,
          name: event.data.name,
          contact_email: event.data.contactEmail,
          state: 'PENDING',
          certification_status: 'PENDING',
          rate_limit_tier: event.data.rateLimitTier,
          created_at: new Date(event.data.createdAt),
          created_position: recorded.globalPosition.toString(),
          revision,
        });
        return;
      case 'PartnerConfigChanged':
        await tx.update(
          PartnerListRow,
          { id: event.data.partnerId },
          { ...(event.data.rateLimitTier ? { rate_limit_tier: event.data.rateLimitTier } : {}), revision },
        );
        return;
      case 'PartnerCertified':
        await tx.update(
          PartnerListRow,
          { id: event.data.partnerId },
          { state: 'ACTIVE', certification_status: 'CERTIFIED', revision },
        );
        return;
      case 'PartnerCertificationReset':
        await tx.update(
          PartnerListRow,
          { id: event.data.partnerId },
          { state: 'PENDING', certification_status: 'PENDING', revision },
        );
        return;
      default:
        await tx.update(PartnerListRow, { id: recorded.stream.slice('partner-'.length) }, { revision });
        return;
    }
  }
}
